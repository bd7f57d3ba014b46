import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  homeworkTransition,
  type HomeworkState,
  type MarkHomeWorkInput,
  type MarkHomeWorkResult,
  type MessageKey,
  type ParentDoneHomeWorkInput,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { HomeworkRepository, type Change, type Locked } from './homework.repository';

/**
 * Marking homework: the teacher during tutoring (several students at once), the guardian at home with a photo. Every
 * batch locks its submission rows in student order, applies the state machine (packages/shared/src/homework.ts) to each,
 * refuses all when one is refused, then one statement changes the rows and appends one history entry each.
 */
@Injectable()
export class MarkingService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: HomeworkRepository,
  ) {}

  async mark(user: SchoolCaller, input: MarkHomeWorkInput): Promise<MarkHomeWorkResult> {
    const school = user.schoolId;
    const ids = [...input.student_ids].sort((a, b) => a - b);
    const keys = ids.map((id) => `${input.request_id}:${id}`);
    const note = input.note ?? null;
    const { rows: results, changed } = await this.db.transaction(async (em) => {
      const hw = await this.repo.ownHomeworkExists(em, school, input.homework_id, user.role, user.id);
      if (!hw) throw new AppError('homework.not_found');
      const rows = await this.lock(em, input.homework_id, ids);
      if (rows.length !== ids.length) {
        const ok = new Set(rows.map((r) => r.student_id));
        throw new AppError('homework.students_not_found', { ids: ids.filter((id) => !ok.has(id)).join(', ') });
      }
      if (await this.seen(em, school, keys)) return { rows, changed: 0 };
      const changes: Change[] = [];
      for (const r of rows) {
        const d = homeworkTransition(r.state, input.state, 'teacher');
        if (!d.ok) throw new AppError(d.error as MessageKey);
        // a repeat with a new note still writes (the note is news: it goes to the history)
        if (!d.repeat || (note !== null && note !== r.note)) changes.push({ student_id: r.student_id, from: r.state, to: d.state });
      }
      if (!changes.length) return { rows, changed: 0 };
      const written = await this.write(em, school, input.homework_id, changes, user.id, 'teacher', input.request_id, {
        note,
        photo: null,
        homeNote: null,
      });
      return { rows: rows.map((r) => written.get(r.student_id) ?? r), changed: written.size };
    });
    return this.answer(input.homework_id, input.state, input.student_ids, results, changed);
  }

  /** A guardian marks an own child's homework done at home with a photo. */
  async parentDone(user: SchoolCaller, input: ParentDoneHomeWorkInput): Promise<MarkHomeWorkResult> {
    const school = user.schoolId;
    const keys = [`${input.request_id}:${input.student_id}`];
    const { rows: results, changed } = await this.db.transaction(async (em) => {
      const own = await this.repo.childsHomework(em, school, input.homework_id, input.student_id, user.id);
      if (!own) throw new AppError('homework.not_found');
      const rows = await this.lock(em, input.homework_id, [input.student_id]);
      if (!rows.length) throw new AppError('homework.not_found');
      if (await this.seen(em, school, keys)) return { rows, changed: 0 };
      const [r] = rows;
      const d = homeworkTransition(r.state, 'done', 'guardian');
      if (!d.ok) throw new AppError(d.error as MessageKey);
      if (d.repeat && r.photo_url === input.photo_url && r.home_note === (input.note ?? null)) return { rows, changed: 0 };
      const written = await this.write(
        em,
        school,
        input.homework_id,
        [{ student_id: r.student_id, from: r.state, to: d.state }],
        user.id,
        'guardian',
        input.request_id,
        {
          note: null,
          photo: input.photo_url,
          homeNote: input.note ?? null,
        },
      );
      return { rows: rows.map((x) => written.get(x.student_id) ?? x), changed: written.size };
    });
    return this.answer(input.homework_id, 'done', [input.student_id], results, changed);
  }

  /** The submissions of these students, locked in student order (concurrent batches never deadlock). */
  private lock(em: EntityManager, homeworkId: number, ids: number[]): Promise<Locked[]> {
    return this.repo.lock(em, homeworkId, ids);
  }

  /** Whether this request was already applied (its history entries exist): a repeat answers the rows as they are. */
  private async seen(em: EntityManager, school: number, keys: string[]): Promise<boolean> {
    return (await this.repo.seen(em, school, keys)) > 0;
  }

  /** One statement: the rows change (version + 1) and one history entry each is appended. */
  private async write(
    em: EntityManager,
    school: number,
    homeworkId: number,
    changes: Change[],
    actorId: number,
    actor: 'teacher' | 'guardian',
    requestId: string,
    extra: { note: string | null; photo: string | null; homeNote: string | null },
  ): Promise<Map<number, Locked>> {
    const rows = await this.repo.write(em, school, homeworkId, changes, actorId, actor, requestId, extra);
    return new Map(rows.map((r) => [r.student_id, r]));
  }

  private answer(homeworkId: number, state: HomeworkState, order: number[], rows: Locked[], changed: number): MarkHomeWorkResult {
    const by = new Map(rows.map((r) => [r.student_id, r]));
    const results = order.map((id) => ({ student_id: id, state: by.get(id)!.state, version: by.get(id)!.version }));
    return { homework_id: homeworkId, state, changed, results };
  }
}
