/**
 * Which channels users want a kind of notice by (DESIGN §3: a module never imports another's internals — this
 * port lets the senders and the owner of the settings meet in core/).
 *
 * The system module fills `messageChannels.ofUsers` from the users' message settings (system/msgsetting.ts,
 * resource system/usermsgsetting, spec 002 §2 'user message setting') when its routes mount; senders (flow's
 * to-dos, flow/todo.ts) ask it. `ofUsers(db, tenantId, userIds, kind)` answers user id → channels (`site`,
 * `sms`, `email`) for `kind` (`todo`, `examine`, `notice`, `account`); with nothing filled in (a kernel without
 * the system module) everyone gets site messages only.
 */
import type { Db } from './db/index.js';

/** User id → the channels that user wants notices of `kind` by. */
export type ChannelsOfUsers = (db: Db, tenantId: string, userIds: string[], kind: string) => Promise<Map<string, string[]>>;

export const messageChannels: { ofUsers: ChannelsOfUsers | null } = { ofUsers: null };

/** The channels of `userIds` for `kind` (site only for everyone while no settings module filled the port). */
export async function channelsOfUsers(db: Db, tenantId: string, userIds: string[], kind: string): Promise<Map<string, string[]>> {
  if (messageChannels.ofUsers) return messageChannels.ofUsers(db, tenantId, userIds, kind);
  return new Map(userIds.map((u) => [u, ['site']]));
}
