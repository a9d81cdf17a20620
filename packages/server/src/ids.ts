import { v7 } from 'uuid';

/** A new resource id: UUID v7, time-ordered, so keyset paging by id follows creation order. */
export function newId(): string {
  return v7();
}
