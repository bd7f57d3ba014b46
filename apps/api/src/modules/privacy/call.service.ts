import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type CallGuardianAnswer, type CallGuardianInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { RESPONSIBLE } from '../students/students.service';
import { ChildAccessLog } from './access-log.service';

/**
 * Staff about to call a guardian or a pick-up person of a child (issue 37 least access): the whole mobile, whoever
 * the caller's answers mask it for, recorded in the access log as a call. The caller must be allowed to see the child
 * (the admin: the school's; a teacher or head teacher: the children they are responsible for, as their lists give
 * them); the person must be one of the child's guardians or its authorised (not removed) pick-up people.
 */
@Injectable()
export class CallGuardianService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly log: ChildAccessLog,
  ) {}

  async call(user: SessionUser, input: CallGuardianInput): Promise<CallGuardianAnswer> {
    const guardian = input.user_id !== undefined;
    const [row]: Array<{ name: string | null; mobile: string | null }> = await this.db.query(
      `select c.name, c.mobile
         from students s
         left join lateral (
           ${
             guardian
               ? `select u.name, u.mobile from student_guardians g join users u on u.id = g.user_id and u.deleted_at is null
                   where g.student_id = s.id and g.user_id = $4`
               : `select p.name, p.mobile from pickup_people p where p.student_id = s.id and p.id = $4 and p.deleted_at is null`
           }
         ) c on true
        where s.id = $1 and s.school_id = $2 and s.anonymised_at is null
          and ($3::int = ${Role.Admin} or ${RESPONSIBLE('$5')})`,
      [input.student_id, user.schoolId, user.role, guardian ? input.user_id : input.pickup_person_id, user.id],
    );
    if (!row) throw new AppError('privacy.not_found');
    if (!row.mobile) throw new AppError('privacy.call_not_found');
    await this.log.record(user, [input.student_id], ['call', guardian ? 'guardians' : 'pickup']);
    return { mobile: row.mobile, name: row.name ?? '' };
  }
}
