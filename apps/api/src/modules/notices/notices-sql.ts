import { Injectable } from '@nestjs/common';
import { Role } from '@wantuo/shared';
import type { JobPayloads } from '../../core/jobs/jobs.types';
import type { JobsService } from '../../core/jobs/jobs.service';
import type { GuardianMessage } from '../messages/guardian-messages.service';

/** The time the notices module works with (a provider, so tests can set the clock to 22:00 or 07:00). */
@Injectable()
export class NoticeClock {
  now(): Date {
    return new Date();
  }
}

/**
 * The recipients of a notice about to be published (`c`: user_id, kind), from the parameters of PUBLISH_SQL: $1 school,
 * $2 scope, $3 class ids, $4 audience, $5 author. Guardians: of the active students of the classes (or of the school),
 * one row per guardian however many children; staff: the on-job teachers and head teachers of the classes (head
 * teacher or a duty there), or of the school; never the author.
 */
const RECIPIENTS = `c as (
    select distinct sg.user_id, 'guardian' as kind
      from student_guardians sg
      join students s on s.id = sg.student_id and s.status = 1
      join users u on u.id = sg.user_id and u.deleted_at is null and u.status = 1
     where sg.school_id = $1 and $4 in ('guardians', 'all') and sg.user_id <> $5
       and ($2 = 'school' or exists (select 1 from care_class_students cs where cs.student_id = s.id and cs.class_id = any($3::int[])))
    union
    select u.id, 'staff'
      from users u
     where u.school_id = $1 and $4 in ('staff', 'all') and u.role in (${Role.Teacher}, ${Role.HeadTeacher}) and u.deleted_at is null and u.status = 1 and u.job_status = 1 and u.id <> $5
       and ($2 = 'school'
            or exists (select 1 from care_classes cc where cc.id = any($3::int[]) and cc.head_teacher_id = u.id)
            or exists (select 1 from duty_assignments d where d.class_id = any($3::int[]) and d.teacher_id = u.id))
  )`;

/**
 * Publishes in one statement: the recipients, the notice (only when there is one, and only once per request key: a
 * repeat or a concurrent twin inserts nothing), its receipts, and, when it is important, whom to tell: the guardians
 * (parents) by user id, for GuardianMessages (WeChat, else SMS), and the staff's distinct mobiles, to text. sms_count
 * counts the staff's texts here; the service adds the guardians told.
 * $6 title, $7 content, $8 summary, $9 attachments json, $10 important, $11 sms_at, $12 request key, $13 now.
 * The module itself publishes with NoticesRepository.publish (the same statement, typed); this text stays for the demo
 * seed (src/seed/demo-notices.ts), which publishes with it.
 */
export const PUBLISH_SQL = `with ${RECIPIENTS},
  g as (select distinct c.user_id from c join users u on u.id = c.user_id where $10::boolean and u.role = ${Role.Parent}),
  m as (select distinct u.mobile from c join users u on u.id = c.user_id
         where $10::boolean and u.role <> ${Role.Parent} and u.mobile is not null and u.mobile <> ''),
  n as (
    insert into notices (school_id, author_id, title, content, summary, attachments, scope, class_ids, audience, important,
                         recipients, sms_count, sms_at, request_key, created_at)
    select $1, $5, $6, $7, $8, $9::jsonb, $2, $3::int[], $4, $10, (select count(*) from c), (select count(*) from m),
           case when $10::boolean then $11::timestamptz end, $12, $13
     where exists (select 1 from c)
    on conflict (school_id, request_key) do nothing
    returning id, recipients, sms_count, sms_at
  ),
  r as (insert into notice_receipts (notice_id, user_id, kind) select n.id, c.user_id, c.kind from n cross join c)
  select n.id, n.recipients, n.sms_count, n.sms_at,
         case when n.id is null then '{}' else coalesce((select array_agg(mobile) from m), '{}') end as mobiles,
         case when n.id is null then '{}' else coalesce((select array_agg(user_id order by user_id) from g), '{}') end as guardians,
         (select count(*)::int from c) as candidates
    from (select 1) one left join n on true`;

/**
 * A notice's message to guardians (GuardianMessages: WeChat, else SMS; held to 07:00 in the quiet hours by
 * messageSendAt), one per guardian, keyed by the notice (and the reminder) and the guardian.
 */
export function noticeMessages(
  schoolId: number,
  guardians: readonly number[],
  kind: 'notice.important' | 'notice.remind',
  params: { school: string; title: string },
  key: string,
): GuardianMessage[] {
  return guardians.map((user_id) => ({ school_id: schoolId, user_id, kind, params, link: '/parent_notices', key: `${key}:${user_id}` }));
}

/** Staff mobiles per `sms.fanout` job (the guardians go through GuardianMessages): a large school's staff is one or two jobs. */
export const FANOUT_SIZE = 500;

export type NoticeText = Omit<JobPayloads['sms.fanout'], 'mobiles' | 'key'>;

/**
 * Queues one text to the staff's `mobiles` on the `sms` queue: `sms.fanout` jobs of FANOUT_SIZE mobiles, added in bulk (JobsService.enqueueMany)
 * and delayed `delayMs` (held to 07:00 in the quiet hours); the worker writes each into one message per mobile
 * and its batches (SmsProcessor), so a request never adds thousands of jobs itself. `key` names the
 * texts (the notice, the reminder) in their job ids. Without Redis: through JobsService (in-process).
 */
export async function queueTexts(jobs: JobsService, key: string, mobiles: string[], text: NoticeText, delayMs: number): Promise<void> {
  if (!mobiles.length) return;
  const chunks: Array<JobPayloads['sms.fanout']> = [];
  for (let i = 0; i < mobiles.length; i += FANOUT_SIZE)
    chunks.push({ ...text, key: `${key}-${i / FANOUT_SIZE}`, mobiles: mobiles.slice(i, i + FANOUT_SIZE) });
  await jobs.enqueueMany('sms.fanout', chunks, { delayMs });
}

/** The plain text of sanitised HTML, for a list's summary (tags dropped, the usual entities decoded, spaces collapsed). */
export function plainSummary(html: string, max = 120): string {
  const text = html
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6])\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
