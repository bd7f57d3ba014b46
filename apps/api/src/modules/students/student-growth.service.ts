import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  defaultPass2,
  GROWTH_MAX_SCORES,
  growthWindow,
  localDay,
  type OverallCommentInput,
  type Page,
  type ParentExamScore,
  type StudentComment,
  type StudentCommentsInput,
  type TeacherStudentGrowthAnswer,
  type TeacherStudentGrowthInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Sendable } from '../../core/http/sendable';
import { StudentsGrowthRepository } from './students-growth.repository';
import { StudentsService } from './students.service';

/** A student's growth record: comments, published exam scores and attendance per period (teacherStudentGrowth, studentComments, overallComment). */
@Injectable()
export class StudentGrowthService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly students: StudentsService,
    private readonly repo: StudentsGrowthRepository,
  ) {}

  /**
   * teacherStudentGrowth: the student's comments (paged) with, whatever the page, the published exam scores and the
   * attendance per week or month over the last GROWTH_PERIODS periods. A teacher sees own students, a parent own
   * children. Four statements whatever the number of exams, days or comments.
   */
  async growth(user: SchoolCaller, q: TeacherStudentGrowthInput): Promise<Sendable<TeacherStudentGrowthAnswer>> {
    const timezone = await this.students.assertVisible(this.db, user, q.student_id);
    const group = q.group ?? 'month';
    const window = growthWindow(localDay(new Date(), timezone), group);
    const page = await this.commentPage(user.schoolId, q);
    const scores = await this.growthScores(user.schoolId, q.student_id);
    const attendance = await this.repo.attendance(user.schoolId, q.student_id, group, window);
    return { ...page, group, scores, attendance };
  }

  /** studentComments: the student's comments, newest first, paged (the admin's view of the growth record). */
  async comments(user: SchoolCaller, q: StudentCommentsInput): Promise<Sendable<Page<StudentComment>>> {
    await this.students.assertVisible(this.db, user, q.student_id);
    return this.commentPage(user.schoolId, q);
  }

  private commentPage(schoolId: number, q: StudentCommentsInput) {
    return this.repo.comments(schoolId, q.student_id, q);
  }

  /**
   * The student's scores in published exams (the latest GROWTH_MAX_SCORES, oldest first), each with the rank in the
   * class the score was entered for and that class's count and average (the guardians' examScore rule). One statement.
   */
  private async growthScores(schoolId: number, studentId: number): Promise<ParentExamScore[]> {
    const rows = await this.repo.scores(schoolId, studentId, GROWTH_MAX_SCORES);
    return rows
      .reverse()
      .map(({ score2, pass2, ...r }) => ({ ...r, score: score2 === null ? null : score2 / 2, pass_mark: (pass2 ?? defaultPass2(r.full_mark)) / 2 }));
  }

  async overallComment(user: SchoolCaller, input: OverallCommentInput): Promise<Sendable<StudentComment>> {
    await this.students.assertVisible(this.db, user, input.student_id, true);
    return this.repo.overall({
      schoolId: user.schoolId,
      studentId: input.student_id,
      authorId: user.id,
      authorName: user.name,
      period: input.period,
      content: input.content,
    });
  }
}
