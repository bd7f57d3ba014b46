import { Inject, Injectable } from '@nestjs/common';
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
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { DomainEvents } from '../../core/events/domain-events';
import { LOGGER } from '../../core/logging/logger';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { FlowDepartures } from '../flow/flow-departures';
import { FlowService } from '../flow/flow.service';
import { SmsTexts } from '../sms/texts.service';
import { openPrivateKey, sealPrivateKey } from './pickup-keyring';
import { PickupKeysRepository, resealPickupKeys } from './pickup-keys.repository';
import { PickupRepository } from './pickup.repository';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The person a verified code names, as the departure's payload carries them. */
interface Standing {
  name: string;
  relation: string;
  /** null: in good standing; else why their codes are refused */
  refusal: 'pickup.revoked' | null;
}

/** What an attempt's log row records: the code, the person it names, the children asked for, offline or not. */
interface Attempt {
  codeId: string | null;
  person: string | null;
  ids: number[];
  offline: boolean;
}

/**
 * Verified pick-up codes (接送码, issue 27): per-school Ed25519 keys, the guardian's and the pick-up person's codes,
 * share links, the staff phones' key, and the departure with a code (studentLiyuan's pickup_code, registered with the
 * flow's FlowDepartures): the pure rules of @wantuo/shared pickup-codes, the person's standing from the database,
 * replay by a unique used-code row written in the departure's transaction, every attempt logged and an unauthorised
 * one told at once (the 'pickup.unauthorised' domain event: the alerts module raises and tells it).
 */
@Injectable()
export class PickupService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PickupRepository,
    private readonly keys: PickupKeysRepository,
    private readonly flow: FlowService,
    private readonly departures: FlowDepartures,
    private readonly texts: SmsTexts,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The school's key pair, made on first use (two first uses at once keep the one stored first). The private key is
   * stored sealed (pickup-keyring.ts: AES-256-GCM with PICKUP_KEYS_ENCRYPTION_KEYS) and opened here, never written
   * in clear; a key that does not open fails loudly (PickupKeyError, naming the key id).
   */
  async keyOf(schoolId: number, db: Queryable = this.db): Promise<{ publicKey: string; privateKey: string }> {
    const ring = this.config.pickupKeyring;
    const found = await this.keys.key(schoolId, db);
    if (found) {
      // a clear row the start has not sealed yet (another process migrated the table after this one started)
      const privateKey = found.private_key ?? openPrivateKey(ring, schoolId, found.sealed_private_key!, found.key_id!);
      return { publicKey: found.public_key, privateKey };
    }
    const pair = pickupKeyPair();
    const { sealed, keyId } = sealPrivateKey(ring, schoolId, pair.privateKey);
    await this.keys.add({ school_id: schoolId, public_key: pair.publicKey, sealed_private_key: sealed, key_id: keyId }, db);
    return this.keyOf(schoolId, db);
  }

  /**
   * Registers the departure with a code with the flow (studentLiyuan's pickup_code), and seals the keys stored in
   * clear before the sealing (the migration cannot read the environment's keys).
   */
  async onModuleInit(): Promise<void> {
    this.departures.register((user, input) => this.depart(user, input));
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
  async code(user: SchoolCaller): Promise<PickupCodeAnswer> {
    const rows = await this.repo.guardianChildren(user.schoolId, user.id);
    if (!rows.length) throw new AppError('pickup.no_children');
    return this.sign(
      user.schoolId,
      { kind: 'g', id: user.id },
      { name: rows[0].me, relation: rows[0].relation, school_name: rows[0].school_name },
      rows.map((r) => ({ id: r.id, name: r.name })),
    );
  }

  /** The guardian's children's (not removed) pick-up people with their live link. */
  async shareLinks(user: SchoolCaller): Promise<PickupShareList> {
    const rows = await this.repo.sharePeople(user.schoolId, user.id);
    return {
      list: rows.map((r) => ({
        pickup_person_id: r.pickup_person_id,
        name: r.name,
        relation: r.relation,
        mobile: r.mobile,
        students: [{ id: r.student_id, name: r.student_name }],
        link:
          r.link_id !== null && r.link_created_at !== null
            ? {
                id: r.link_id,
                created_at: new Date(r.link_created_at).toISOString(),
                last_used_at: r.link_last_used_at ? new Date(r.link_last_used_at).toISOString() : null,
              }
            : null,
      })),
    };
  }

  /**
   * A new share link for a pick-up person of the guardian's child; the person's earlier links are revoked with it. A
   * person with a mobile gets the link by SMS ('pickup.link', staged with the link and sent after the commit): `sent`.
   */
  async shareLink(user: SchoolCaller, input: PickupShareLinkInput): Promise<PickupShareLinkAnswer> {
    const token = toB64url(randomBytes(24));
    const path = `/m/pickup/${token}`;
    const url = `${this.config.webPublicUrl}${path}`;
    const { link, staged } = await this.db.transaction(async (em) => {
      const person = await this.repo.lockSharePerson(em, user.schoolId, user.id, input.pickup_person_id);
      if (!person) throw new AppError('pickup.person_not_found');
      await this.repo.revokePersonLinks(em, person.id);
      const row = await this.repo.addLink(em, {
        school_id: user.schoolId,
        pickup_person_id: person.id,
        token_hash: tokenHash(token),
        created_by: user.id,
      });
      const texts = MOBILE_RE.test(person.mobile)
        ? await this.texts.stage(em, [
            {
              school_id: user.schoolId,
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
  async revoke(user: SchoolCaller, input: PickupRevokeInput): Promise<Record<string, never>> {
    if (!(await this.repo.revokeGuardianLink(user.schoolId, user.id, input.link_id))) throw new AppError('pickup.link_not_found');
    return {};
  }

  /** A pick-up person's own code by their live link. */
  async codeByLink(q: PickupCodeByLinkQuery): Promise<PickupCodeAnswer> {
    const [row] = await this.repo.useLink(tokenHash(q.token));
    if (!row) throw new AppError('pickup.link_not_found');
    return this.sign(row.school_id, { kind: 'p', id: row.person_id }, row, [{ id: row.student_id, name: row.student }]);
  }

  /** The school's public key and the people a code may name (a teacher's own students; the admin's school). */
  async verifyKey(user: SchoolCaller): Promise<PickupVerifyKeyAnswer> {
    const { publicKey } = await this.keyOf(user.schoolId);
    const scoped = user.role === Role.Teacher || user.role === Role.HeadTeacher;
    const rows = await this.repo.codePeople(user.schoolId, scoped ? user.id : null);
    return {
      school_id: user.schoolId,
      public_key: publicKey,
      people: rows.filter((r) => !r.revoked).map(({ revoked: _, ...r }) => r),
      revoked: rows.filter((r) => r.revoked).map((r) => r.person),
      fetched_at: new Date().toISOString(),
    };
  }

  /** Whether the person a code names may still collect these students, and their name. */
  private async standing(person: PickupPerson, schoolId: number, studentIds: number[]): Promise<Standing | null> {
    if (person.kind === 'g') {
      const g = await this.repo.guardianStanding(schoolId, person.id, studentIds);
      if (!g) {
        const u = await this.repo.userName(schoolId, person.id);
        return u ? { name: u.name, relation: '', refusal: 'pickup.revoked' } : null;
      }
      return { name: g.name, relation: g.relation, refusal: g.n === studentIds.length ? null : 'pickup.revoked' };
    }
    const p = await this.repo.personStanding(schoolId, person.id);
    if (!p) return null;
    const ok = !p.deleted && p.live && studentIds.every((id) => id === p.student_id);
    return { name: p.name, relation: p.relation, refusal: ok ? null : 'pickup.revoked' };
  }

  /**
   * A code checked as at 离园 (signature, expiry at verified_at or now, the offline window, every child in the code, the
   * person's standing): the verified person, or refused (logged; an unauthorised code alerts at once) by throwing.
   */
  private async verify(user: SchoolCaller, input: { student_ids: number[]; pickup_code: string; verified_at?: string }) {
    const schoolId = user.schoolId;
    const ids = [...new Set(input.student_ids)];
    const { publicKey } = await this.keyOf(schoolId);
    const verifiedAtMs = input.verified_at ? Date.parse(input.verified_at) : null;
    const check = checkPickupCode({ code: input.pickup_code, publicKey, school: schoolId, students: ids, nowMs: Date.now(), verifiedAtMs });
    const offline = verifiedAtMs !== null;
    const attempt: Attempt = { codeId: check.codeId ?? null, person: check.parsed?.payload.person ?? null, ids, offline };
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
  async reportAttempt(user: SchoolCaller, input: ReportPickupAttemptInput): Promise<Record<string, never>> {
    const { attempt } = await this.verify(user, input);
    await this.log(user, attempt, 'checked');
    return {};
  }

  /**
   * studentLiyuan with a pick-up code: verified here (signature, expiry at verified_at or now, the 5-minute offline
   * window, every child in the code, the person's standing, replay), then the departure through the flow with the
   * verified person in its payload and the used-code row in the append's transaction. A refused code throws its own
   * message; an unauthorised one (a genuine code of a revoked person or not for this child) alerts at once.
   */
  async depart(user: SchoolCaller, input: StudentLiyuanInput & { pickup_code: string }): Promise<FlowResults> {
    const schoolId = user.schoolId;
    const { ids, check, who, attempt, offline } = await this.verify(user, input);

    const eventId = (input.event_id ?? randomUUID()).toLowerCase();
    const used = await this.repo.usedCode(check.codeId);
    if (pickupReplay(used, eventId) === 'pickup.replayed') return this.refuse(user, 'pickup.replayed', attempt);

    const person = check.parsed.person;
    const cmd: FlowCommand = {
      type: 'leave',
      picked_up_by: person.kind === 'p' ? person.id : null,
      note: input.note,
      pickup_verified: { person: `${person.kind}${person.id}`, name: who.name, relation: who.relation, code_id: check.codeId, offline },
    };
    const claim = async (em: EntityManager) => {
      const claimed = await this.repo.claimCode(em, {
        code_id: check.codeId,
        school_id: schoolId,
        person: cmd.pickup_verified!.person,
        student_ids: ids,
        event_id: eventId,
        offline,
        verified_at: new Date(check.atMs),
        actor_id: user.id,
      });
      if (claimed) return;
      const first = await this.repo.usedCode(check.codeId, em);
      if (pickupReplay(first, eventId) === 'pickup.replayed') throw new AppError('pickup.replayed', {}, undefined, { reason: 'pickup.replayed' });
    };
    let result: FlowResults;
    try {
      result = await this.flow.command(user, ids, cmd, { eventId, claim });
    } catch (err) {
      if (err instanceof AppError && err.key === 'pickup.replayed') return this.refuse(user, 'pickup.replayed', attempt);
      throw err;
    }
    const refused = result.results.find((r) => !r.ok);
    await this.log(user, attempt, refused ? 'flow.refused' : 'ok');
    return result;
  }

  /** Logs an attempt of the caller's; answers its id. */
  private log(user: SchoolCaller, a: Attempt, result: string): Promise<number> {
    return this.repo.logAttempt({
      school_id: user.schoolId,
      code_id: a.codeId,
      person: a.person,
      student_ids: a.ids,
      actor_id: user.id,
      result,
      offline: a.offline,
    });
  }

  /**
   * Logs a refused attempt and throws; an unauthorised one is told after its log row commits ('pickup.unauthorised': the
   * alerts module raises the boards' alert and texts the head teacher and the children's guardians).
   */
  private async refuse(user: SchoolCaller, reason: PickupRefusal, a: Attempt): Promise<never> {
    const attemptId = await this.log(user, a, reason);
    if (isUnauthorisedPickup(reason))
      this.events.emit('pickup.unauthorised', { school_id: user.schoolId, attempt_id: attemptId, student_ids: a.ids });
    throw new AppError(reason, {}, undefined, { reason });
  }
}
