/** Who is acting: the admin's username (or `api` for X-API-Key, `system` for jobs) and the caller address. */
export interface Actor {
  adminId: number | null;
  username: string;
  ip: string | null;
}

export const SYSTEM_ACTOR: Actor = { adminId: null, username: 'system', ip: null };
