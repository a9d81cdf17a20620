import type { UsageDay } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import type { ProjectService } from '../images/project-service.ts';
import type { Principal } from '../principal.ts';
import type { UsageRecorder } from './usage-recorder.ts';
import { UsageStore, usageDays } from './usage-store.ts';

export class UsageService {
  readonly #projects: ProjectService;
  readonly #recorder: UsageRecorder;
  readonly #store: UsageStore;

  constructor(database: Database, projects: ProjectService, recorder: UsageRecorder) {
    this.#projects = projects;
    this.#recorder = recorder;
    this.#store = new UsageStore(database);
  }

  /** The last `days` UTC days including today, oldest first; this process's unsaved counts are saved first. */
  async daily(principal: Principal, projectId: string, days: number): Promise<UsageDay[]> {
    const project = await this.#projects.get(principal, projectId);
    await this.#recorder.flush();
    const today = new Date();
    const from = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    return usageDays(await this.#store.since(project.id, from), today, days);
  }
}
