import { Injectable } from '@nestjs/common';
import type { JobHandler, JobName, JobPayloads } from './jobs.types';

/** Handlers by job name, filled by the processors of the worker (or of the API when it runs jobs in-process). */
@Injectable()
export class JobRegistry {
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();

  register<K extends JobName>(name: K, handler: JobHandler<K>): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} has two handlers`);
    this.handlers.set(name, handler as JobHandler<JobName>);
  }

  async run<K extends JobName>(name: K, data: JobPayloads[K]): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`no handler for job ${name}`);
    await handler(data);
  }

  names(): JobName[] {
    return [...this.handlers.keys()];
  }
}
