/**
 * Who writes: the integration named in the request (X-Integration-Name) and, when the gateway
 * forwarded one, the user it acts for. Every audited table records both, under the names below.
 */
export interface Actor {
  name: string;
  userId: string | null;
}

/** The part of a request context the stamps are taken from (RequestContext has both). */
export interface ActorSource {
  integrationName: string;
  callerId: string | null;
}

export const actorOf = (ctx: ActorSource): Actor => ({
  name: ctx.integrationName,
  userId: ctx.callerId,
});

/** The columns a change of a record writes besides its own fields. */
export interface ModifiedStamps {
  modifiedBy: string;
  modifiedByUserId: string | null;
}

/** The columns a new record writes about its author (it is also its first modification). */
export interface CreatedStamps extends ModifiedStamps {
  createdBy: string;
  createdByUserId: string | null;
}

export const modifiedStamps = (ctx: ActorSource): ModifiedStamps => ({
  modifiedBy: ctx.integrationName,
  modifiedByUserId: ctx.callerId,
});

export const createdStamps = (ctx: ActorSource): CreatedStamps => ({
  createdBy: ctx.integrationName,
  createdByUserId: ctx.callerId,
  ...modifiedStamps(ctx),
});

/**
 * What a new record writes besides its own fields: its tenant, where its lifecycle starts and
 * who created it (people and companies alike; events will too).
 */
export interface NewRecordStamps extends CreatedStamps {
  tenantId: string;
  lifecycleId: string | null;
  lifecycleChanged: Date | null;
  dateCreated: Date;
}
