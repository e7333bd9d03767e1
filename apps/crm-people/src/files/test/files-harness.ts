import { FileStorageUnderTest, withFileStorage } from '@crm/testing';
import { RunningService, startCrmPeople } from '../../test/service-harness';

export type FilesService = RunningService & FileStorageUnderTest;

/** startCrmPeople (test/service-harness.ts) with the files in a fresh temporary folder. */
export const startWithStorage = (dbName: string): Promise<FilesService> =>
  withFileStorage('crm-people', (env) => startCrmPeople(dbName, env));
