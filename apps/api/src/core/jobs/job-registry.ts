import { Injectable, Optional } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { runInJobContext } from '../logging/log-context';
import { JOB_SPECS, type JobHandler, type JobName, type JobPayloads } from './jobs.types';

/** Handlers by job name, filled by the processors of the worker (or of the API when it runs jobs in-process). */
@Injectable()
export class JobRegistry {
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();

  /** every run, in the worker and in-process alike, is timed into job_duration_seconds (core/metrics) */
  constructor(@Optional() private readonly metrics?: Metrics) {}

  register<K extends JobName>(name: K, handler: JobHandler<K>): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} has two handlers`);
    this.handlers.set(name, handler as JobHandler<JobName>);
  }

  /** Runs a job's handler in a log context of its own: its lines carry job_id (BullMQ's id, `inline-<n>` in-process), queue, job. */
  async run<K extends JobName>(name: K, data: JobPayloads[K], job: { id?: string } = {}): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`no handler for job ${name}`);
    const done = this.metrics?.jobDuration.startTimer({ queue: JOB_SPECS[name].queue, job: name });
    try {
      await runInJobContext({ job_id: job.id, queue: JOB_SPECS[name].queue, job: name }, () => handler(data));
      done?.({ outcome: 'completed' });
    } catch (err) {
      done?.({ outcome: 'failed' });
      throw err;
    }
  }

  names(): JobName[] {
    return [...this.handlers.keys()];
  }
}
