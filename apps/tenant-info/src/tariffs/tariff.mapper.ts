import { MODULES, TariffSummary } from '@crm/messaging';
import type { Tariff } from './dto/tariff.dto';
import type { TariffRecord } from './tariffs.repository';

/**
 * Looks up the text of a translation key in the caller's language; `fallback` (the English text
 * stored with the reference data) when the catalogue has none.
 */
export type TextLookup = (key: string, fallback: string) => string;

/** Modules in the fixed order of MODULES; unknown ones (added to the data before the code) last. */
export function moduleRank(module: string): number {
  const i = (MODULES as readonly string[]).indexOf(module);
  return i < 0 ? MODULES.length : i;
}

function sortedModules(record: TariffRecord): TariffRecord['modules'] {
  return [...record.modules].sort(
    (a, b) => moduleRank(a.module) - moduleRank(b.module) || a.module.localeCompare(b.module),
  );
}

/** NATS reply (operators, gateway): stored texts and bare function keys. */
export function toTariffSummary(record: TariffRecord): TariffSummary {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    modules: sortedModules(record).map((m) => ({
      module: m.module,
      name: m.name,
      functions: [...m.functions],
    })),
  };
}

/** TI2: texts in the caller's language, each function with its key and name. */
export function toTariff(record: TariffRecord, text: TextLookup): Tariff {
  return {
    id: record.id,
    name: text(`tenantInfo.tariffs.${record.id}.name`, record.name),
    description: record.description
      ? text(`tenantInfo.tariffs.${record.id}.description`, record.description)
      : null,
    modules: sortedModules(record).map((m) => ({
      module: m.module,
      name: text(`tenantInfo.modules.${m.module}`, m.name),
      functions: m.functions.map((key) => ({
        key,
        name: text(`tenantInfo.functions.${key}`, key),
      })),
    })),
  };
}
