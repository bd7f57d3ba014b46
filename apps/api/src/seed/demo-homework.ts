import { addDays, dueDayOk, homeworkTransition, type HomeworkActor, type HomeworkState } from '@wantuo/shared';
import type { ShowcaseContext, ShowcaseStudent } from './demo-showcase';
import { spread } from './demo-showcase';
import type { DemoTeaching } from './demo-teaching';

const CARE_WORK = [
  { title: '数学口算练习', content: '完成口算本第 12 页（两位数加减法），限时 10 分钟，订正错题。' },
  { title: '语文生字抄写', content: '抄写第 7 课生字，每个 3 遍，并各组 2 个词语。' },
  { title: '英语单词跟读', content: '跟读 Unit 3 单词录音 3 遍，默写 8 个重点单词。' },
  { title: '数学练习册', content: '完成练习册第 24–25 页，应用题写出算式和单位。' },
  { title: '课外阅读', content: '阅读《小猪唏哩呼噜》第三章，摘抄两个好词好句。' },
  { title: '语文预习', content: '预习第 8 课，圈出不认识的字，读课文 3 遍。' },
];
const TEACHING_WORK = [
  { title: '横画练习', content: '在米字格纸上练习长横、短横各两行，注意起笔和收笔。' },
  { title: '竖画练习', content: '练习垂露竖、悬针竖各两行，下次课带来。' },
];

interface Planned {
  kind: 'care' | 'teaching';
  class_id: number;
  session_id: number | null;
  teacher_id: number;
  title: string;
  content: string;
  set_day: string;
  due_day: string;
  /** school days between the day it was set and today */
  age: number;
  students: ShowcaseStudent[];
}

/**
 * Homework of the last week: set each school day for 阳光一班 by its tutoring teacher, twice for 阳光二班, and after the
 * last two held sessions of the teaching class; marked as the homework module's state machine allows
 * (homeworkTransition: done at the centre by the teacher or at home by the guardian, then checked by the teacher):
 * older homework mostly checked, yesterday's mostly done, today's still to do (the demo parent's children did some at home). Every change is in the history.
 */
export async function seedDemoHomework(c: ShowcaseContext, teaching: DemoTeaching): Promise<number> {
  const { em, schoolId, users } = c;
  const days = c.schoolDays(addDays(c.today, -14), c.today).reverse(); // today (when a school day) first
  const recent = days.filter((d) => d < c.today).slice(0, 5);
  const ageOf = (day: string) => c.schoolDays(day, c.today).filter((d) => d > day).length;
  const planned: Planned[] = [];
  const byId = new Map([...c.running, ...c.second].map((s) => [s.id, s]));
  for (const [i, day] of [...(days[0] === c.today ? [c.today] : []), ...recent].entries()) {
    const w = CARE_WORK[i % CARE_WORK.length];
    planned.push({
      kind: 'care',
      class_id: c.classes.running,
      session_id: null,
      teacher_id: users.teacher,
      ...w,
      set_day: day,
      due_day: day,
      age: ageOf(day),
      students: c.running,
    });
    if (i === 1 || i === 3) {
      const v = CARE_WORK[(i + 3) % CARE_WORK.length];
      planned.push({
        kind: 'care',
        class_id: c.classes.second,
        session_id: null,
        teacher_id: users.liu,
        ...v,
        set_day: day,
        due_day: addDays(day, 1),
        age: ageOf(day),
        students: c.second,
      });
    }
  }
  for (const [i, s] of teaching.held.slice(-2).entries()) {
    planned.push({
      kind: 'teaching',
      class_id: teaching.teaching.id,
      session_id: s.id,
      teacher_id: teaching.teaching.teacher_id,
      ...TEACHING_WORK[i],
      set_day: s.day,
      due_day: addDays(s.day, 7),
      age: ageOf(s.day),
      students: teaching.teaching.members.map((id) => byId.get(id)!),
    });
  }

  const ev = {
    homework: [] as number[],
    student: [] as number[],
    from: [] as string[],
    to: [] as string[],
    actor: [] as number[],
    who: [] as string[],
    note: [] as Array<string | null>,
    at: [] as Date[],
  };
  const final = {
    homework: [] as number[],
    student: [] as number[],
    state: [] as string[],
    note: [] as Array<string | null>,
    home: [] as Array<string | null>,
    by: [] as number[],
    at: [] as Date[],
    version: [] as number[],
  };
  for (const [n, h] of planned.entries()) {
    if (!dueDayOk(h.set_day, h.due_day)) throw new Error(`demo homework due ${h.due_day} refused`);
    const [row]: Array<{ id: number }> = await em.query(
      `insert into homeworks (school_id, kind, class_id, session_id, title, content, set_day, due_day, teacher_id, request_key, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, least(now(), $11::timestamptz)) returning id`,
      [
        schoolId,
        h.kind,
        h.class_id,
        h.session_id,
        h.title,
        h.content,
        h.set_day,
        h.due_day,
        h.teacher_id,
        `${h.teacher_id}:demo-homework-${n + 1}`,
        c.at(h.set_day, h.kind === 'teaching' ? '20:30' : '16:10'),
      ],
    );
    for (const st of h.students) {
      const r = spread(st.id, n, 10);
      // what happened to this student's homework: by age, with a few left behind
      const steps: Array<{ cmd: 'done' | 'checked'; actor: HomeworkActor; at: Date; note: string | null }> = [];
      const doneAtHome = st.parents_child && r < 6;
      const doneAt = doneAtHome ? c.at(h.set_day, '20:40') : c.at(h.set_day, '18:45');
      const doneNote = doneAtHome ? '在家完成，已签字' : null;
      if (h.age >= 2 ? r !== 0 : h.age === 1 && r > 1)
        steps.push({ cmd: 'done', actor: doneAtHome ? 'guardian' : 'teacher', at: doneAt, note: doneNote });
      if (h.age >= 2 && r !== 0 && r !== 1)
        steps.push({ cmd: 'checked', actor: 'teacher', at: c.at(addDays(h.set_day, 1), '16:30'), note: r === 2 ? '字迹工整，继续保持' : null });
      let state: HomeworkState = 'todo';
      let version = 1;
      let note: string | null = null;
      let home: string | null = null;
      let by = h.teacher_id;
      let at: Date | null = null;
      for (const s of steps) {
        const t = homeworkTransition(state, s.cmd, s.actor);
        if (!t.ok || t.repeat) throw new Error(`demo homework ${state} -> ${s.cmd} refused`);
        const actorId = s.actor === 'guardian' ? users.parent : h.teacher_id;
        ev.homework.push(row.id);
        ev.student.push(st.id);
        ev.from.push(state);
        ev.to.push(t.state);
        ev.actor.push(actorId);
        ev.who.push(s.actor);
        ev.note.push(s.note);
        ev.at.push(s.at);
        state = t.state;
        version++;
        if (s.actor === 'guardian') home = s.note;
        else if (s.note) note = s.note;
        by = actorId;
        at = s.at;
      }
      final.homework.push(row.id);
      final.student.push(st.id);
      final.state.push(state);
      final.note.push(note);
      final.home.push(home);
      final.by.push(at ? by : (null as unknown as number));
      final.at.push(at as Date);
      final.version.push(version);
    }
  }
  await em.query(
    `insert into homework_submissions (homework_id, student_id, school_id, state, note, home_note, updated_by, updated_at, version)
     select x.homework_id, x.student_id, $1, x.state, x.note, x.home_note, x.updated_by, x.updated_at, x.version
       from unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::timestamptz[], $9::int[])
         as x(homework_id, student_id, state, note, home_note, updated_by, updated_at, version)`,
    [schoolId, final.homework, final.student, final.state, final.note, final.home, final.by, final.at, final.version],
  );
  await em.query(
    `insert into homework_events (school_id, homework_id, student_id, from_state, to_state, note, actor_id, actor, at)
     select $1, x.* from unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::timestamptz[])
       as x(homework_id, student_id, from_state, to_state, note, actor_id, actor, at)`,
    [schoolId, ev.homework, ev.student, ev.from, ev.to, ev.note, ev.actor, ev.who, ev.at],
  );
  return planned.length;
}
