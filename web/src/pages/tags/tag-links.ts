/** Where a tag leads: the servers list filtered by it (useServersView's `tag`), the push flow with its servers (push-flow-params' `tag`). */
export const serversOfTagLink = (tag: string): string => `/servers?${new URLSearchParams({ tag })}`;
export const pushToTagLink = (tag: string): string => `/push?${new URLSearchParams({ tag })}`;
