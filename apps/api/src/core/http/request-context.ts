import type { Request } from 'express';
import { normalizeLang, type Lang, type Role } from '@wantuo/shared';

/** The signed-in user as the auth guard found it: one query per request. */
export interface SessionUser {
  id: number;
  role: Role;
  schoolId: number | null;
  name: string;
  nickname: string;
  lang: Lang;
  tokenId: number;
  /** the school's paid service end (null: none set, or no school): an expired school's staff may read, not write */
  serviceExpiresAt?: Date | null;
  /** a guardian who has not accepted the current privacy documents for every child: sees no child's data until then */
  needsConsent?: boolean;
}

export interface AppRequest extends Request {
  user?: SessionUser;
  lang?: Lang;
  requestId?: string;
}

/** The caller's language: the `lang` header, else the user's setting, else zh-CN. */
export function langOf(req: AppRequest): Lang {
  const header = req.headers['lang'];
  if (typeof header === 'string' && header) return normalizeLang(header);
  return req.user?.lang ?? 'zh-CN';
}

export function clientIp(req: Request): string {
  return (req.ip ?? req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}
