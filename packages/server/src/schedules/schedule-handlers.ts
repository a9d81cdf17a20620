import type { Handlers } from '../http/handlers.ts';
import type { ScheduleService } from './schedule-service.ts';

type ScheduleHandlers = Pick<Handlers, 'listSchedules' | 'createSchedule' | 'getSchedule' | 'updateSchedule' | 'deleteSchedule'>;

export function scheduleHandlers(schedules: ScheduleService): ScheduleHandlers {
  return {
    listSchedules: ({ params, query }, { principal }) => schedules.list(principal, params.projectId, query),
    createSchedule: ({ params, body }, { principal }) => schedules.create(principal, params.projectId, body),
    getSchedule: ({ params }, { principal }) => schedules.get(principal, params.projectId, params.scheduleId),
    updateSchedule: ({ params, body }, { principal }) => schedules.update(principal, params.projectId, params.scheduleId, body),
    deleteSchedule: ({ params }, { principal }) => schedules.delete(principal, params.projectId, params.scheduleId),
  };
}
