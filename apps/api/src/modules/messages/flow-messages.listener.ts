import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { STEP_EVENT, type GuardianMessageKind } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../core/events/domain-events';
import { CommitBatches } from '../../core/events/commit-batches';
import { LOGGER } from '../../core/logging/logger';
import { GuardianMessages, type GuardianMessage } from './guardian-messages.service';

/** The flow events guardians are told of: arrival (入园) and departure (离园, with who picked up). */
const KIND_OF: Partial<Record<string, GuardianMessageKind>> = {
  [STEP_EVENT.entered]: 'flow.arrived',
  [STEP_EVENT.left]: 'flow.left',
};

/**
 * Tells every guardian of a student that the child arrived or left (with who picked up: the verified person of a scanned
 * pick-up code, issue 27, else the pick-up person chosen), after the flow's
 * commit ('flow.committed'). The events of one command (a class entered at once) are gathered and told together:
 * one query for their students, guardians and pick-up people, one GuardianMessages.send. Keyed per flow event, so an
 * event seen twice is told once.
 */
@Injectable()
export class FlowMessagesListener implements OnModuleInit, OnModuleDestroy {
  private off: (() => void) | null = null;
  private readonly batches = new CommitBatches<number>(
    async (batch) => {
      await this.tell(batch);
    },
    (err) => this.log.error({ err }, 'guardians not told of flow events'),
  );

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    private readonly messages: GuardianMessages,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    this.off = this.events.on('flow.committed', (e) => {
      if (!KIND_OF[e.type]) return;
      this.batches.push(e.position);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.off?.();
    await this.settled();
  }

  /** Resolves once everything received so far is told (tests). */
  async settled(): Promise<void> {
    await this.batches.settled();
  }

  /** The messages of these flow events (global positions) to every guardian of their students. */
  async tell(positions: number[]): Promise<number> {
    const rows: Array<{
      event_id: string;
      type: string;
      school_id: number;
      student_id: number;
      student: string;
      school: string;
      time: string;
      by: string | null;
      guardians: number[];
    }> = await this.db.query(
      `select e.event_id, e.type, e.school_id, e.student_id, st.name as student, sc.name as school,
              to_char(e.occurred_at at time zone coalesce(sc.timezone, 'Asia/Shanghai'), 'HH24:MI') as time,
              case when jsonb_typeof(e.payload->'pickup_verified') = 'object'
                     then (e.payload->'pickup_verified'->>'name') || coalesce('（' || nullif(e.payload->'pickup_verified'->>'relation', '') || '）', '')
                   when pp.id is not null then pp.name || '（' || pp.relation || '）' end as by,
              coalesce((select array_agg(sg.user_id order by sg.user_id) from student_guardians sg where sg.student_id = e.student_id), '{}') as guardians
         from flow_events e
         join students st on st.id = e.student_id
         join schools sc on sc.id = e.school_id
         left join pickup_people pp on pp.id = (e.payload->>'picked_up_by')::int and pp.student_id = e.student_id
        where e.global_position = any($1::bigint[]) and e.type = any($2::text[])`,
      [positions, Object.keys(KIND_OF)],
    );
    const items: GuardianMessage[] = [];
    for (const r of rows) {
      const kind = KIND_OF[r.type]!;
      const params: Record<string, string> = { school: r.school, student: r.student, time: r.time };
      if (kind === 'flow.left') params.by = r.by ?? '家长';
      for (const user_id of r.guardians) {
        items.push({
          school_id: r.school_id,
          user_id,
          kind,
          params,
          link: `/parent?student=${r.student_id}`,
          key: `flow:${r.event_id}:${user_id}`,
        });
      }
    }
    return this.messages.send(items);
  }
}
