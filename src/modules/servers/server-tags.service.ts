/**
 * Tags across the fleet. Rename: every server carrying `from` carries `to` instead, in the same
 * place of its list. When servers already carry `to` the caller must say `merge: true` (else 409
 * `tag_exists`): a merge is what an operator wants when fixing a typo ("prod " vs "prod"), but it
 * cannot be undone by renaming back, so it is never silent. A server with both keeps `to` once.
 * Remove: the tag disappears from every server; the servers stay. Both are audited.
 */
import type { Actor } from '../../core/actor.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { ServerTagsRepository } from './server-tags.repository.js';
import type { RenameTagBody, TagChangeResult } from './server-tags.schemas.js';

/** The longest tag a server may carry (the servers schema's own limit). */
export const TAG_MAX = 64;

const CONTROL = /[\u0000-\u001f\u007f]/;

/** A tag as servers store it: trimmed (as create/update store them), 1..64 chars, no control characters. */
export function tagName(raw: string, field: string): string {
  const tag = raw.trim();
  if (tag === '' || tag.length > TAG_MAX || CONTROL.test(tag)) {
    throw new BadRequestError(`${field} must be 1 to ${TAG_MAX} characters without control characters`, 'tag_invalid');
  }
  return tag;
}

export class ServerTagsService {
  constructor(
    private readonly repo: ServerTagsRepository,
    private readonly audit: AuditService,
  ) {}

  async rename(actor: Actor, body: RenameTagBody): Promise<TagChangeResult> {
    // `from` is matched as given (trimmed): a stored tag is always trimmed.
    const from = tagName(body.from, 'from');
    const to = tagName(body.to, 'to');
    if (from === to) throw new BadRequestError('The new name is the same as the old one', 'tag_unchanged');
    if ((await this.repo.carrying(from)) === 0) throw new NotFoundError(`No server carries the tag ${from}`, 'tag_not_found');
    const existing = await this.repo.carrying(to);
    if (existing > 0 && body.merge !== true) {
      throw new ConflictError(`${existing} server(s) already carry the tag ${to}: send merge: true to merge`, 'tag_exists');
    }
    const { servers, merged } = await this.repo.rewrite(
      from,
      (tags) => {
        const out: string[] = [];
        for (const t of tags) {
          const next = t === from ? to : t;
          if (!out.includes(next)) out.push(next);
        }
        return out;
      },
      to,
    );
    await this.audit.record(actor, 'rename_tag', { type: 'tag', id: from, detail: `to ${to}: ${servers} servers${merged ? `, ${merged} merged` : ''}` });
    return { from, to, servers, merged };
  }

  async remove(actor: Actor, raw: string): Promise<TagChangeResult> {
    const tag = tagName(raw, 'tag');
    const { servers } = await this.repo.rewrite(tag, (tags) => tags.filter((t) => t !== tag));
    if (servers === 0) throw new NotFoundError(`No server carries the tag ${tag}`, 'tag_not_found');
    await this.audit.record(actor, 'delete_tag', { type: 'tag', id: tag, detail: `${servers} servers` });
    return { from: tag, to: null, servers, merged: 0 };
  }
}
