import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { STEP_EVENT, type GuardianMessageKind } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DomainEvents } from '../../core/events/domain-events';
import { CommitBatches } from '../../core/events/commit-batches';
import { LOGGER } from '../../core/logging/logger';
import { GuardianMessages, type GuardianMessage } from './guardian-messages.service';
import { MessagesRepository } from './messages.repository';

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
    private readonly repo: MessagesRepository,
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
    const rows = await this.repo.flowEvents(positions, Object.keys(KIND_OF));
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
