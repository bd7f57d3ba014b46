import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  checkPickupCode,
  isUnauthorisedPickup,
  pickupKeyPair,
  pickupReplay,
  pickupWindowEnd,
  pickupWindowOf,
  PICKUP_VALID_WINDOWS,
  PICKUP_WINDOW_SECONDS,
  Role,
  signPickupCode,
  MOBILE_RE,
  toB64url,
  type AlertKind,
  type FlowCommand,
  type FlowResults,
  type PickupCodeAnswer,
  type PickupCodeByLinkQuery,
  type PickupPerson,
  type PickupRefusal,
  type PickupRevokeInput,
  type PickupShareLinkAnswer,
  type PickupShareLinkInput,
  type PickupShareList,
  type PickupVerifyKeyAnswer,
  type ReportPickupAttemptInput,
  type StudentLiyuanInput,
} from '@wantuo/shared';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { LOGGER } from '../../core/logging/logger';
import { schoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { ALERT_WHAT, RAISE_EVENT_ALERT_SQL } from '../alerts/alerts.service';
import { FlowService } from '../flow/flow.service';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { SmsTexts } from '../sms/texts.service';
import { RESPONSIBLE } from '../students/students.service';
import { openPrivateKey, resealPickupKeys, sealPrivateKey } from './pickup-keyring';

/** What an unauthorised attempt's alert says (alert.raised's `what`; the boards' alert pickup_unauthorised). */
export const UNAUTHORISED_WHAT = ALERT_WHAT.pickup_unauthorised;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

type Db = Pick<EntityManager, 'query'>;

/** The person a verified code names, as the departure's payload carries them. */
interface Standing {
  name: string;
  relation: string;
  /** null: in good standing; else why their codes are refused */
  refusal: 'pickup.revoked' | null;
}

/**
 * Verified pick-up codes (接送码, issue 27): per-school Ed25519 keys, the guardian's and the pick-up person's codes,
 * share links, the staff phones' key, and the departure with a code (studentLiyuan's pickup_code): the pure rules of
 * @wantuo/shared pickup-codes, the person's standing from the database, replay by a unique used-code row written in
 * the departure's transaction, every attempt logged and an unauthorised one told at once.
 */
@Injectable()
export class PickupService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly flow: FlowService,
    private readonly texts: SmsTexts,
    private readonly messages: GuardianMessages,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The school's key pair, made on first use (two first uses at once keep the one stored first). The private key is
   * stored sealed (pickup-keyring.ts: AES-256-GCM with PICKUP_KEYS_ENCRYPTION_KEYS) and opened here, never written
   * in clear; a key that does not open fails loudly (PickupKeyError, naming the key id).
   */
  async keyOf(schoolId: number, db: Db = this.db): Promise<{ publicKey: string; privateKey: string }> {
    const ring = this.config.pickupKeyring;
    const [found]: Array<{ public_key: string; sealed_private_key: string | null; key_id: string | null; private_key: string | null }> =
      await db.query(`select public_key, sealed_private_key, key_id, private_key from pickup_keys where school_id = $1`, [schoolId]);
    if (found) {
      // a clear row the start has not sealed yet (another process migrated the table after this one started)
      const privateKey = found.private_key ?? openPrivateKey(ring, schoolId, found.sealed_private_key!, found.key_id!);
      return { publicKey: found.public_key, privateKey };
    }
    const pair = pickupKeyPair();
    const { sealed, keyId } = sealPrivateKey(ring, schoolId, pair.privateKey);
    await db.query(
      `insert into pickup_keys (school_id, public_key, sealed_private_key, key_id) values ($1, $2, $3, $4) on conflict (school_id) do nothing`,
      [schoolId, pair.publicKey, sealed, keyId],
    );
    return this.keyOf(schoolId, db);
  }

  /** Seals the keys stored in clear before the sealing (the migration cannot read the environment's keys). */
  async onModuleInit(): Promise<void> {
    const sealed = await resealPickupKeys(this.db, this.config.pickupKeyring, { onlyClear: true });
    if (sealed) this.logger.info({ sealed }, 'pick-up keys sealed');
  }

  private async sign(
    schoolId: number,
    person: PickupPerson,
    who: { name: string; relation: string; school_name: string },
    students: Array<{ id: number; name: string }>,
  ): Promise<PickupCodeAnswer> {
    const { privateKey } = await this.keyOf(schoolId);
    const now = Date.now();
    const code = signPickupCode(privateKey, { school: schoolId, person, students: students.map((s) => s.id), nowMs: now });
    const window = pickupWindowOf(now);
    return {
      code,
      window_ends_at: new Date(pickupWindowEnd(window)).toISOString(),
      valid_until: new Date((window + PICKUP_VALID_WINDOWS) * PICKUP_WINDOW_SECONDS * 1000).toISOString(),
      person: `${person.kind}${person.id}`,
      name: who.name,
      relation: who.relation,
      school_name: who.school_name,
      students,
    };
  }

  /** The guardian's own code, for all their (active) children of the school. */
  async code(user: SessionUser): Promise<PickupCodeAnswer> {
    const rows: Array<{ id: number; name: string; relation: string; me: string; school_name: string }> = await this.db.query(
      `select s.id, s.name, g.relation, u.name as me, sc.name as school_name
         from student_guardians g
         join students s on s.id = g.student_id and s.status = 1 and s.school_id = $2
         join users u on u.id = g.user_id
         join schools sc on sc.id = s.school_id
        where g.user_id = $1
        order by s.id`,
      [user.id, user.schoolId],
    );
    if (!rows.length) throw new AppError('pickup.no_children');
    return this.sign(
      user.schoolId!,
      { kind: 'g', id: user.id },
      { name: rows[0].me, relation: rows[0].relation, school_name: rows[0].school_name },
      rows.map((r) => ({ id: r.id, name: r.name })),
    );
  }

  /** The guardian's children's (not removed) pick-up people with their live link. */
  async shareLinks(user: SessionUser): Promise<PickupShareList> {
    const list = await this.db.query(
      `select p.id as pickup_person_id, p.name, p.relation, p.mobile,
              json_build_array(json_build_object('id', s.id, 'name', s.name)) as students,
              (select json_build_object('id', l.id, 'created_at', l.created_at, 'last_used_at', l.last_used_at)
                 from pickup_links l where l.pickup_person_id = p.id and l.revoked_at is null order by l.id desc limit 1) as link
         from student_guardians g
         join students s on s.id = g.student_id and s.status = 1 and s.school_id = $2
         join pickup_people p on p.student_id = s.id and p.deleted_at is null
        where g.user_id = $1
        order by s.id, p.id`,
      [user.id, user.schoolId],
    );
    return {
      list: list.map((r: PickupShareList['list'][number]) => ({
        ...r,
        link: r.link
          ? {
              id: r.link.id,
              created_at: new Date(r.link.created_at).toISOString(),
              last_used_at: r.link.last_used_at ? new Date(r.link.last_used_at).toISOString() : null,
            }
          : null,
      })),
    };
  }

  /**
   * A new share link for a pick-up person of the guardian's child; the person's earlier links are revoked with it. A
   * person with a mobile gets the link by SMS ('pickup.link', staged with the link and sent after the commit): `sent`.
   */
  async shareLink(user: SessionUser, input: PickupShareLinkInput): Promise<PickupShareLinkAnswer> {
    const token = toB64url(randomBytes(24));
    const path = `/m/pickup/${token}`;
    const url = `${this.config.webPublicUrl}${path}`;
    const { link, staged } = await this.db.transaction(async (em) => {
      const [person]: Array<{ id: number; name: string; mobile: string; student: string; school: string }> = await em.query(
        `select p.id, p.name, btrim(p.mobile) as mobile, s.name as student, sc.name as school
           from pickup_people p
           join students s on s.id = p.student_id and s.status = 1 and s.school_id = $3
           join schools sc on sc.id = s.school_id
           join student_guardians g on g.student_id = s.id and g.user_id = $2
          where p.id = $1 and p.deleted_at is null
          for update of p`,
        [input.pickup_person_id, user.id, user.schoolId],
      );
      if (!person) throw new AppError('pickup.person_not_found');
      await em.query(`update pickup_links set revoked_at = now() where pickup_person_id = $1 and revoked_at is null`, [person.id]);
      const [row]: Array<{ id: number }> = await em.query(
        `insert into pickup_links (school_id, pickup_person_id, token_hash, created_by) values ($1, $2, $3, $4) returning id`,
        [user.schoolId, person.id, tokenHash(token), user.id],
      );
      const texts = MOBILE_RE.test(person.mobile)
        ? await this.texts.stage(em, [
            {
              school_id: user.schoolId!,
              mobile: person.mobile,
              kind: 'pickup.link',
              params: { school: person.school, student: person.student, person: person.name, url },
              key: `pickup.link:${row.id}`,
            },
          ])
        : null;
      return { link: row, staged: texts };
    });
    if (staged) await this.texts.dispatch(staged);
    return { id: link.id, token, path, url, sent: staged !== null };
  }

  /** Revokes a share link of the guardian's children's pick-up people. */
  async revoke(user: SessionUser, input: PickupRevokeInput): Promise<Record<string, never>> {
    const [, count]: [unknown, number] = await this.db.query(
      `update pickup_links l set revoked_at = now()
         from pickup_people p
         join students s on s.id = p.student_id and s.school_id = $3
         join student_guardians g on g.student_id = s.id and g.user_id = $2
        where l.id = $1 and l.pickup_person_id = p.id and l.revoked_at is null`,
      [input.link_id, user.id, user.schoolId],
    );
    if (!count) throw new AppError('pickup.link_not_found');
    return {};
  }

  /** A pick-up person's own code by their live link. */
  async codeByLink(q: PickupCodeByLinkQuery): Promise<PickupCodeAnswer> {
    type Row = { school_id: number; person_id: number; name: string; relation: string; student_id: number; student: string; school_name: string };
    const [rows]: [Row[], number] = await this.db.query(
      `update pickup_links l set last_used_at = now()
           from pickup_people p
           join students s on s.id = p.student_id and s.status = 1
           join schools sc on sc.id = s.school_id
          where l.token_hash = $1 and l.revoked_at is null and p.id = l.pickup_person_id and p.deleted_at is null
          returning l.school_id, p.id as person_id, p.name, p.relation, s.id as student_id, s.name as student, sc.name as school_name`,
      [tokenHash(q.token)],
    );
    const row = rows[0];
    if (!row) throw new AppError('pickup.link_not_found');
    return this.sign(row.school_id, { kind: 'p', id: row.person_id }, row, [{ id: row.student_id, name: row.student }]);
  }

  /** The school's public key and the people a code may name (a teacher's own students; the admin's school). */
  async verifyKey(user: SessionUser): Promise<PickupVerifyKeyAnswer> {
    const { publicKey } = await this.keyOf(user.schoolId!);
    const scoped = user.role === Role.Teacher || user.role === Role.HeadTeacher;
    const rows: Array<{ person: string; name: string; relation: string; students: number[]; revoked: boolean }> = await this.db.query(
      `with mine as (
         select s.id from students s where s.school_id = $1 and s.status = 1 and ($2::int is null or ${RESPONSIBLE('$2')})
       )
       select 'g' || g.user_id as person, min(u.name) as name, min(g.relation) as relation, array_agg(g.student_id order by g.student_id) as students,
              false as revoked
         from student_guardians g join mine on mine.id = g.student_id join users u on u.id = g.user_id
        group by g.user_id
       union all
       select 'p' || p.id, p.name, p.relation, array[p.student_id],
              p.deleted_at is not null or not exists (select 1 from pickup_links l where l.pickup_person_id = p.id and l.revoked_at is null)
         from pickup_people p join mine on mine.id = p.student_id
        where p.deleted_at is null or exists (select 1 from pickup_links l where l.pickup_person_id = p.id)`,
      [user.schoolId, scoped ? user.id : null],
    );
    return {
      school_id: user.schoolId!,
      public_key: publicKey,
      people: rows.filter((r) => !r.revoked).map(({ revoked: _, ...r }) => r),
      revoked: rows.filter((r) => r.revoked).map((r) => r.person),
      fetched_at: new Date().toISOString(),
    };
  }

  /** Whether the person a code names may still collect these students, and their name. */
  private async standing(person: PickupPerson, schoolId: number, studentIds: number[]): Promise<Standing | null> {
    if (person.kind === 'g') {
      const rows: Array<{ name: string; relation: string; n: number }> = await this.db.query(
        `select min(u.name) as name, min(g.relation) as relation, count(*)::int as n
           from users u join student_guardians g on g.user_id = u.id and g.student_id = any($2::int[]) and g.school_id = $3
          where u.id = $1 and u.status = 1
          group by u.id`,
        [person.id, studentIds, schoolId],
      );
      if (!rows.length) {
        const [u]: Array<{ name: string }> = await this.db.query(`select name from users where id = $1 and school_id = $2`, [person.id, schoolId]);
        return u ? { name: u.name, relation: '', refusal: 'pickup.revoked' } : null;
      }
      return { name: rows[0].name, relation: rows[0].relation, refusal: rows[0].n === studentIds.length ? null : 'pickup.revoked' };
    }
    const [p]: Array<{ name: string; relation: string; student_id: number; deleted: boolean; live: boolean }> = await this.db.query(
      `select p.name, p.relation, p.student_id, p.deleted_at is not null as deleted,
              exists (select 1 from pickup_links l where l.pickup_person_id = p.id and l.revoked_at is null) as live
         from pickup_people p where p.id = $1 and p.school_id = $2`,
      [person.id, schoolId],
    );
    if (!p) return null;
    const ok = !p.deleted && p.live && studentIds.every((id) => id === p.student_id);
    return { name: p.name, relation: p.relation, refusal: ok ? null : 'pickup.revoked' };
  }

  /**
   * A code checked as at 离园 (signature, expiry at verified_at or now, the offline window, every child in the code, the
   * person's standing): the verified person, or refused (logged; an unauthorised code alerts at once) by throwing.
   */
  private async verify(user: SessionUser, input: { student_ids: number[]; pickup_code: string; verified_at?: string }) {
    const schoolId = user.schoolId!;
    const ids = [...new Set(input.student_ids)];
    const { publicKey } = await this.keyOf(schoolId);
    const verifiedAtMs = input.verified_at ? Date.parse(input.verified_at) : null;
    const check = checkPickupCode({ code: input.pickup_code, publicKey, school: schoolId, students: ids, nowMs: Date.now(), verifiedAtMs });
    const offline = verifiedAtMs !== null;
    const attempt = { codeId: check.codeId ?? null, person: check.parsed?.payload.person ?? null, ids, offline };
    if (!check.ok) return this.refuse(user, check.reason, attempt);
    const who = await this.standing(check.parsed.person, schoolId, ids);
    if (!who) return this.refuse(user, 'pickup.bad_signature', attempt);
    // an unauthorised person is told apart from a child they may not take: both alert
    if (who.refusal) return this.refuse(user, who.refusal, attempt);
    return { ids, check, who, attempt, offline };
  }

  /**
   * reportPickupAttempt: a code the phone refused on its own, checked here as at 离园 so an unauthorised one is logged
   * and alerted even though no departure is asked for. A code the API finds good is only logged (`checked`): the
   * departure is still the teacher's to confirm.
   */
  async reportAttempt(user: SessionUser, input: ReportPickupAttemptInput): Promise<Record<string, never>> {
    const { attempt } = await this.verify(user, input);
    await this.log(user.schoolId!, user.id, attempt, 'checked');
    return {};
  }

  /**
   * studentLiyuan with a pick-up code: verified here (signature, expiry at verified_at or now, the 5-minute offline
   * window, every child in the code, the person's standing, replay), then the departure through the flow with the
   * verified person in its payload and the used-code row in the append's transaction. A refused code throws its own
   * message; an unauthorised one (a genuine code of a revoked person or not for this child) alerts at once.
   */
  async depart(user: SessionUser, input: StudentLiyuanInput & { pickup_code: string }): Promise<FlowResults> {
    const schoolId = user.schoolId!;
    const { ids, check, who, attempt, offline } = await this.verify(user, input);

    const eventId = (input.event_id ?? randomUUID()).toLowerCase();
    const [used]: Array<{ event_id: string }> = await this.db.query(`select event_id from pickup_used_codes where code_id = $1`, [check.codeId]);
    if (pickupReplay(used, eventId) === 'pickup.replayed') return this.refuse(user, 'pickup.replayed', attempt);

    const person = check.parsed.person;
    const cmd: FlowCommand = {
      type: 'leave',
      picked_up_by: person.kind === 'p' ? person.id : null,
      note: input.note,
      pickup_verified: { person: `${person.kind}${person.id}`, name: who.name, relation: who.relation, code_id: check.codeId, offline },
    };
    const claim = async (em: EntityManager) => {
      const claimed: unknown[] = await em.query(
        `insert into pickup_used_codes (code_id, school_id, person, student_ids, event_id, offline, verified_at, actor_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (code_id) do nothing returning code_id`,
        [check.codeId, schoolId, cmd.pickup_verified!.person, ids, eventId, offline, new Date(check.atMs), user.id],
      );
      if (claimed.length) return;
      const [first]: Array<{ event_id: string }> = await em.query(`select event_id from pickup_used_codes where code_id = $1`, [check.codeId]);
      if (pickupReplay(first, eventId) === 'pickup.replayed') throw new AppError('pickup.replayed', {}, undefined, { reason: 'pickup.replayed' });
    };
    let result: FlowResults;
    try {
      result = await this.flow.command(schoolCaller(user), ids, cmd, { eventId, claim });
    } catch (err) {
      if (err instanceof AppError && err.key === 'pickup.replayed') return this.refuse(user, 'pickup.replayed', attempt);
      throw err;
    }
    const refused = result.results.find((r) => !r.ok);
    await this.log(schoolId, user.id, attempt, refused ? 'flow.refused' : 'ok');
    return result;
  }

  private async log(
    schoolId: number,
    actorId: number,
    a: { codeId: string | null; person: string | null; ids: number[]; offline: boolean },
    result: string,
  ): Promise<number> {
    const [row]: Array<{ id: string }> = await this.db.query(
      `insert into pickup_attempts (school_id, code_id, person, student_ids, actor_id, result, offline) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [schoolId, a.codeId, a.person, a.ids, actorId, result, a.offline],
    );
    return Number(row.id);
  }

  /** Logs a refused attempt, alerts an unauthorised one (head teacher by SMS, the children's guardians at once), throws. */
  private async refuse(
    user: SessionUser,
    reason: PickupRefusal,
    a: { codeId: string | null; person: string | null; ids: number[]; offline: boolean },
  ): Promise<never> {
    const schoolId = user.schoolId!;
    const attemptId = await this.log(schoolId, user.id, a, reason);
    if (isUnauthorisedPickup(reason)) await this.alert(schoolId, attemptId, a.ids);
    throw new AppError(reason, {}, undefined, { reason });
  }

  /** The boards' alert (flow_alerts pickup_unauthorised, once per student and day) and the texts of this attempt. */
  private async alert(schoolId: number, attemptId: number, studentIds: number[]): Promise<void> {
    await this.db.query(RAISE_EVENT_ALERT_SQL, [schoolId, studentIds, 'pickup_unauthorised' satisfies AlertKind]);
    const rows: Array<{ student_id: number; student: string; class_name: string; school: string; head_mobile: string | null; guardians: number[] }> =
      await this.db.query(
        `select s.id as student_id, s.name as student, coalesce(c.name, '') as class_name, sc.name as school,
                (select mobile from users where id = c.head_teacher_id and job_status = 1) as head_mobile,
                coalesce((select array_agg(g.user_id order by g.is_primary desc, g.created_at) from student_guardians g where g.student_id = s.id), '{}') as guardians
           from students s
           join schools sc on sc.id = s.school_id
           left join care_class_students cs on cs.student_id = s.id
           left join care_classes c on c.id = cs.class_id
          where s.school_id = $1 and s.id = any($2::int[])`,
        [schoolId, studentIds],
      );
    const params = (r: (typeof rows)[number]) => ({ school: r.school, student: r.student, class: r.class_name, what: UNAUTHORISED_WHAT });
    await this.texts.queue(
      rows
        .filter((r) => r.head_mobile)
        .map((r) => ({
          school_id: schoolId,
          mobile: r.head_mobile!,
          kind: 'alert.raised' as const,
          params: params(r),
          key: `pickup:${attemptId}:${r.student_id}:head`,
        })),
    );
    await this.messages.send(
      rows.flatMap((r) =>
        r.guardians.map((user_id) => ({
          school_id: schoolId,
          user_id,
          kind: 'alert.raised' as const,
          params: params(r),
          link: `/parent?student=${r.student_id}`,
          key: `pickup:${attemptId}:${r.student_id}:${user_id}`,
        })),
      ),
    );
  }
}
