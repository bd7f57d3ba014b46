import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  findOverlap,
  slotsOverlap,
  type AddClassTimeInput,
  type AddStudentClassTimeInput,
  type ClassTime,
  type ClassTimeListQuery,
  type ClassTimeOption,
  type DelClassTimeInput,
  type EditClassTimeInput,
  type Page,
  type SelectClassTimeQuery,
  type StudentClassTimes,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import {
  deleteSlot,
  insertSlot,
  lockSlot,
  lockStudent,
  othersSlotsOfStudents,
  replaceStudentSlots,
  slotOptions,
  slotPage,
  slotsForShare,
  slotUse,
  updateSlot,
} from './timetable-slots.repository';

/**
 * Time slots: name, start and end (local times of the school), weekdays. A class has one slot; a student may have
 * individual slots that must not overlap each other (the rule is slotsOverlap of packages/shared).
 */
@Injectable()
export class TimetableService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Slots by start time, with how many classes and students use each; rows and total in one query. */
  list(user: SchoolCaller, q: ClassTimeListQuery): Promise<Page<ClassTime>> {
    return slotPage(this.db, user.schoolId, containsPattern(q.name), q);
  }

  /** For pickers: at most 200 slots by start time. */
  async select(user: SchoolCaller, q: SelectClassTimeQuery): Promise<{ list: ClassTimeOption[] }> {
    return { list: await slotOptions(this.db, user.schoolId, containsPattern(q.name)) };
  }

  add(user: SchoolCaller, input: AddClassTimeInput): Promise<ClassTime> {
    return insertSlot(this.db, user.schoolId, input);
  }

  /**
   * Edits a slot on the version the caller read. Refused when a student who has this slot and another one would
   * then have two overlapping slots.
   */
  async edit(user: SchoolCaller, input: EditClassTimeInput): Promise<ClassTime> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      const current = await lockSlot(em, school, input.id);
      if (!current) throw new AppError('timetable.slot_not_found');
      if (current.version !== input.version) throw new AppError('error.conflict');
      const others = await othersSlotsOfStudents(em, school, input.id);
      const clash = others.find((o) => slotsOverlap(o, input));
      if (clash) throw new AppError('timetable.edit_overlap', { student: clash.student, other: clash.name });
      return updateSlot(em, school, input.id, input);
    });
  }

  /** Soft-deletes a slot no class and no student uses; else says by whom it is used. */
  async del(user: SchoolCaller, input: DelClassTimeInput): Promise<{ id: number }> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      const use = await slotUse(em, school, input.id);
      if (!use) throw new AppError('timetable.slot_not_found');
      if (use.classes > 0 || use.students > 0) {
        throw new AppError('timetable.slot_in_use', { classes: use.classes, names: use.names ?? '-', students: use.students });
      }
      await deleteSlot(em, input.id);
      return { id: input.id };
    });
  }

  /** Replaces a student's individual slots; refuses a set of slots that overlap each other. */
  async setStudentSlots(user: SchoolCaller, input: AddStudentClassTimeInput): Promise<StudentClassTimes> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      if (!(await lockStudent(em, school, input.student_id))) throw new AppError('timetable.student_not_found');
      // for share: a slot being set here cannot be deleted or edited meanwhile
      const slots = await slotsForShare(em, school, input.class_time_ids);
      if (slots.length !== input.class_time_ids.length) throw new AppError('timetable.slot_not_found');
      const pair = findOverlap(slots);
      if (pair) throw new AppError('timetable.slots_overlap', { a: pair[0].name, b: pair[1].name });
      await replaceStudentSlots(em, school, input.student_id, slots.length ? input.class_time_ids : []);
      return { student_id: input.student_id, class_times: slots };
    });
  }
}
