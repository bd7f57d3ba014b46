import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page, TutorialSetting, TutorialSettingInput, TutorialSettingListQuery, TutorialType, TutorialTypeQuery } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { checkTeacher } from './tutoring-sql';
import { insertType, seedTypes, settingOf, settingPage, typePage, updateSetting } from './tutoring-classes.repository';

/** The school's tutoring types and their settings (duration, price per session, default teacher). */
@Injectable()
export class TutoringSettingsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The types in their order, with the classes of each; the defaults are inserted on the school's first read. */
  async types(user: SchoolCaller, q: TutorialTypeQuery): Promise<Page<TutorialType>> {
    await seedTypes(this.db, user.schoolId);
    return typePage(this.db, user.schoolId, q);
  }

  /** Each type's setting in the types' order. */
  async settings(user: SchoolCaller, q: TutorialSettingListQuery): Promise<Page<TutorialSetting>> {
    await seedTypes(this.db, user.schoolId);
    return settingPage(this.db, user.schoolId, q);
  }

  /** Saves a type's setting on the version read, or adds a type (placed last). Classes keep the price they were created with. */
  async save(user: SchoolCaller, input: TutorialSettingInput): Promise<TutorialSetting> {
    const school = user.schoolId;
    const id = await this.db.transaction(async (em) => {
      if (input.teacher_id) await checkTeacher(em, school, input.teacher_id);
      try {
        if (input.type_id === undefined) {
          await seedTypes(em, school);
          return await insertType(em, school, input);
        }
        const row = await updateSetting(em, school, { ...input, type_id: input.type_id });
        if (!row) throw new AppError('tutoring.type_not_found');
        if (!row.updated) throw new AppError('tutoring.setting_stale');
        return row.id;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('tutoring.type_name_taken');
        throw err;
      }
    });
    return settingOf(this.db, id);
  }
}
