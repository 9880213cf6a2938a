/**
 * The tags area's English strings (the reference: tags.zh-CN.ts must have exactly these keys).
 * `codesEn` are the texts of this area's error codes (merged into `errors.codes`).
 */
export const en = {
  title: 'Tags',
  intro: 'Every tag the fleet uses and how many servers carry it. Renaming or removing a tag changes every server that carries it.',
  listLabel: 'Tags',
  tag: 'Tag', servers: 'Servers', actions: 'Actions',
  serverCount_one: '{{count}} server', serverCount_other: '{{count}} servers',
  showServers: 'Servers tagged {{tag}}',
  pushTo: 'Push to this tag', pushToTag: 'Push to this tag: {{tag}}',
  rename: 'Rename', renameTag: 'Rename the tag {{tag}}', newName: 'New name',
  renameHelp_one: 'The {{count}} server carrying {{tag}} will carry the new name instead.',
  renameHelp_other: 'The {{count}} servers carrying {{tag}} will carry the new name instead.',
  mergeTitle: 'Merge into {{to}}?',
  mergeConfirm: 'Servers already carry {{to}}. Merge {{from}} into it? A server carrying both keeps {{to}} once. This cannot be undone by renaming back.',
  merge: 'Merge',
  remove: 'Remove', removeTag: 'Remove the tag {{tag}}',
  removeConfirm_one: 'Remove the tag {{tag}} from {{count}} server? The server stays.',
  removeConfirm_other: 'Remove the tag {{tag}} from {{count}} servers? The servers stay.',
  renamed_one: 'Renamed {{from}} to {{to}} on {{count}} server.', renamed_other: 'Renamed {{from}} to {{to}} on {{count}} servers.',
  removed_one: 'Removed {{tag}} from {{count}} server.', removed_other: 'Removed {{tag}} from {{count}} servers.',
  empty: 'No server carries a tag yet. Tags are set on a server\'s form.',
  toServers: 'Go to servers',
};

export const codesEn = {
  tag_invalid: 'A tag must be 1 to 64 characters, without control characters.',
  tag_not_found: 'No server carries that tag any more.',
  tag_unchanged: 'The new name is the same as the old one.',
  tag_exists: 'Servers already carry that tag. Merge the two tags?',
};
