import type { CompanyBankAccount as AccountRow } from '../generated/prisma/client';
import type { CompanyBankAccount } from './dto/bank-account.output';
import { formatIban } from './iban-rules';

/** Row -> output: the IBAN also in paper format. */
export function toBankAccount(r: AccountRow): CompanyBankAccount {
  return {
    id: r.id,
    iban: r.iban,
    ibanFormatted: formatIban(r.iban),
    bic: r.bic,
    bankName: r.bankName,
    accountHolder: r.accountHolder,
    isFavorite: r.isFavorite,
    dateCreated: r.dateCreated.toISOString(),
    dateModified: r.dateModified.toISOString(),
  };
}
