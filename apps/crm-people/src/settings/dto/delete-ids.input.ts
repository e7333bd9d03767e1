import { IdsInput } from '@crm/paging';

/** Body of every batch delete: `{ ids: [...] }`, 1 to 1000 UUIDs. */
export class DeleteIdsInput extends IdsInput({ required: false, each: 'uuid' }) {}
