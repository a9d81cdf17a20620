import { type CreatePreset, LoupeError, type Page, type Preset, type UpdatePreset } from '@loupe/contract';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../principal.ts';
import { assertPresetWithinBound } from '../transform/output-bound.ts';
import { PresetStore } from './preset-store.ts';
import type { ProjectService } from './project-service.ts';

const presetNotFound = () => new LoupeError('not_found', { message: 'No such preset in this project.' });
const nameTaken = (name: string) =>
  new LoupeError('preset_name_taken', { message: `A preset named "${name}" already exists in this project.` });

export class PresetService {
  readonly #database: Database;
  readonly #projects: ProjectService;
  readonly #presets: PresetStore;
  readonly #maxOutputPixels: number;

  /** `maxOutputPixels`: a preset whose box is larger could never be delivered, so it is not saved. */
  constructor(database: Database, projects: ProjectService, maxOutputPixels: number) {
    this.#database = database;
    this.#projects = projects;
    this.#presets = new PresetStore(database);
    this.#maxOutputPixels = maxOutputPixels;
  }

  async list(principal: Principal, projectId: string, page: { limit: number; cursor?: string }): Promise<Page<Preset>> {
    await this.#projects.get(principal, projectId);
    return this.#presets.list(projectId, page);
  }

  async get(principal: Principal, projectId: string, presetId: string): Promise<Preset> {
    await this.#projects.get(principal, projectId);
    const preset = await this.#presets.find(projectId, presetId);
    if (!preset) throw presetNotFound();
    return preset;
  }

  async create(principal: Principal, projectId: string, input: CreatePreset): Promise<Preset> {
    await this.#projects.get(principal, projectId);
    assertPresetWithinBound(input.transforms, this.#maxOutputPixels, 'transforms');
    const at = now();
    const preset: Preset = { id: newId(), name: input.name, transforms: input.transforms, createdAt: at, updatedAt: at };
    try {
      await this.#presets.insert(projectId, preset);
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) throw nameTaken(input.name);
      throw error;
    }
    return preset;
  }

  /** `transforms`, when given, replaces the preset's transforms entirely (spec §4). */
  async update(principal: Principal, projectId: string, presetId: string, input: UpdatePreset): Promise<Preset> {
    await this.#projects.get(principal, projectId);
    if (input.transforms) assertPresetWithinBound(input.transforms, this.#maxOutputPixels, 'transforms');
    try {
      if (!(await this.#presets.update(projectId, presetId, input, now()))) throw presetNotFound();
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) throw nameTaken(input.name ?? '');
      throw error;
    }
    return (await this.#presets.find(projectId, presetId)) as Preset;
  }

  async delete(principal: Principal, projectId: string, presetId: string): Promise<{ deleted: true }> {
    await this.#projects.get(principal, projectId);
    if (!(await this.#presets.delete(projectId, presetId))) throw presetNotFound();
    return { deleted: true };
  }
}
