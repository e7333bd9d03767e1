import { extractContact } from './contact-extractor';

// Real-looking signatures (made-up people, reserved or fictional numbers and domains).

const GERMAN_FULL = `Hallo Herr Meier,

anbei wie besprochen das Angebot. Bei Fragen melden Sie sich gern.

Mit freundlichen Grüßen

Dr. Anna-Lena Schmidt
Leiterin Vertrieb | Key Accounts
Muster Maschinenbau GmbH & Co. KG
Industriestraße 12a
80331 München
Deutschland

Tel.: +49 (0)89 1234567-0
Mobil: 0170 1234567
Fax: +49 89 1234567-99
E-Mail: anna-lena.schmidt@muster-maschinenbau.de
www.muster-maschinenbau.de

Sitz der Gesellschaft: München, Registergericht: Amtsgericht München HRB 123456
Geschäftsführer: Max Mustermann, Erika Musterfrau
`;

const ENGLISH_US = `Hi team,

Please find the deck attached.

Best regards,
John A. Smith
Head of Marketing, EMEA
Acme Widgets Inc.
1600 Amphitheatre Parkway
Mountain View, CA 94043
United States
Phone: +1 (650) 253-0000
Mobile: +1 650 555 0123
john.smith@acmewidgets.com
`;

const ENGLISH_UK = `Kind regards

Sarah O'Connor
Senior Account Manager – Key Accounts
Widget Solutions Ltd
10 Downing Street
London SW1A 2AA
United Kingdom
T: +44 20 7946 0958
M: 07911 123456
sarah.oconnor@widgetsolutions.co.uk
`;

const SWISS_ONE_LINE = `Freundliche Grüsse
Hans Müller · Geschäftsführer · Alpen Consulting AG
Bahnhofstrasse 1, 8001 Zürich · Telefon +41 44 123 45 67 · hans.mueller@alpen-consulting.ch
`;

const AUSTRIAN_TITLES = `Beste Grüße aus Wien

Mag. Dipl.-Ing. Katharina von der Heide, MBA
Projektleiterin Digitalisierung
Abteilung IT
Donau Software GmbH
Praterstraße 25/3/12
1020 Wien
Österreich
Tel +43 1 234 56 78 - 12
katharina.vonderheide@donau-software.at
`;

const INFORMAL_REPLY = `Passt, danke!

Viele Grüße, Tom

> Am 12.03.2024 um 10:15 schrieb Lisa Becker <lisa.becker@beispiel.de>:
> Hallo Tom, kannst du morgen?
> Lisa Becker
> Beispiel AG
`;

const SHARED_MAILBOX = `Mit freundlichen Grüßen
Ihr Team der Kundenbetreuung
Beispiel Versand GmbH · Hauptstr. 5 · 10115 Berlin
Telefon 030 12345678 · info@beispiel-versand.de`;

const COMBINED_LINE = `Cheers,
Jane Doe | CTO & Co-Founder | Example Labs
jane@examplelabs.io | +1 415 555 0132`;

const ON_BEHALF = `Mit freundlichen Grüßen
i. A. Petra Klein
Sachbearbeiterin Buchhaltung
Klein & Partner Steuerberatungsgesellschaft mbH
Tel. 0221 9876543
p.klein@klein-partner.de`;

const REVERSED_CAPS = `Regards
MÜLLER, Thomas
Procurement Specialist
Nordic Trading AB
thomas.muller@nordictrading.se`;

describe('extractContact', () => {
  it('reads a full German signature, ignoring the company footer', () => {
    const r = extractContact(GERMAN_FULL, 'de');
    expect(r.person).toEqual({
      salutation: null,
      title: 'Dr.',
      firstname: 'Anna-Lena',
      lastname: 'Schmidt',
    });
    expect(r.card.business).toBe('Muster Maschinenbau GmbH & Co. KG');
    expect(r.card.businessPositions).toEqual([
      { position: 'Leiterin Vertrieb', department: 'Key Accounts' },
    ]);
    expect(r.card.emails).toEqual([{ mail: 'anna-lena.schmidt@muster-maschinenbau.de' }]);
    expect(r.card.phones).toEqual([
      { number: '+498912345670', type: 'landline' },
      { number: '+491701234567', type: 'mobile' },
      { number: '+4989123456799', type: 'fax' },
    ]);
    expect(r.card.addresses).toEqual([
      {
        street: 'Industriestraße 12a',
        zip: '80331',
        city: 'München',
        federalState: null,
        country: 'Deutschland',
        countryCode: 'DE',
      },
    ]);
    expect(r.confidence.firstname).toBeGreaterThanOrEqual(0.9);
    expect(r.confidence.business).toBe(0.9);
    expect(r.confidence.emails).toBe(0.99);
  });

  it('reads a US signature with a state and ZIP code', () => {
    const r = extractContact(ENGLISH_US, 'en');
    expect(r.person).toEqual({
      salutation: null,
      title: null,
      firstname: 'John A.',
      lastname: 'Smith',
    });
    expect(r.card.business).toBe('Acme Widgets Inc.');
    expect(r.card.businessPositions).toEqual([
      { position: 'Head of Marketing, EMEA', department: 'Marketing' },
    ]);
    expect(r.card.phones).toEqual([
      { number: '+16502530000', type: 'landline' },
      { number: '+16505550123', type: 'mobile' },
    ]);
    expect(r.card.addresses).toEqual([
      {
        street: '1600 Amphitheatre Parkway',
        zip: '94043',
        city: 'Mountain View',
        federalState: 'CA',
        country: 'United States',
        countryCode: 'US',
      },
    ]);
  });

  it('reads a UK signature: national mobile numbers take the detected country, not DE', () => {
    const r = extractContact(ENGLISH_UK, 'en');
    expect(r.person).toMatchObject({ firstname: 'Sarah', lastname: "O'Connor" });
    expect(r.card.business).toBe('Widget Solutions Ltd');
    expect(r.card.businessPositions).toEqual([
      { position: 'Senior Account Manager', department: 'Key Accounts' },
    ]);
    expect(r.card.phones).toEqual([
      { number: '+442079460958', type: 'landline' },
      { number: '+447911123456', type: 'mobile' },
    ]);
    expect(r.card.addresses[0]).toEqual({
      street: '10 Downing Street',
      zip: 'SW1A 2AA',
      city: 'London',
      federalState: null,
      country: 'United Kingdom',
      countryCode: 'GB',
    });
  });

  it('splits a one-line Swiss signature at its separators', () => {
    const r = extractContact(SWISS_ONE_LINE, 'de');
    expect(r.person).toMatchObject({ firstname: 'Hans', lastname: 'Müller' });
    expect(r.card.business).toBe('Alpen Consulting AG');
    expect(r.card.businessPositions).toEqual([{ position: 'Geschäftsführer', department: null }]);
    expect(r.card.phones).toEqual([{ number: '+41441234567', type: 'landline' }]);
    expect(r.card.emails).toEqual([{ mail: 'hans.mueller@alpen-consulting.ch' }]);
    expect(r.card.addresses).toEqual([
      {
        street: 'Bahnhofstrasse 1',
        zip: '8001',
        city: 'Zürich',
        federalState: null,
        country: 'Schweiz',
        countryCode: 'CH',
      },
    ]);
    // Umlaut in the name, "ue" in the address: still the same person.
    expect(r.confidence.lastname).toBeGreaterThanOrEqual(0.9);
  });

  it('reads Austrian titles, a name particle, a post-nominal and a department line', () => {
    const r = extractContact(AUSTRIAN_TITLES, 'de');
    expect(r.person).toEqual({
      salutation: null,
      title: 'Mag. Dipl.-Ing.',
      firstname: 'Katharina',
      lastname: 'von der Heide',
    });
    expect(r.card.businessPositions).toEqual([
      { position: 'Projektleiterin Digitalisierung', department: 'IT' },
    ]);
    expect(r.card.business).toBe('Donau Software GmbH');
    expect(r.card.addresses[0]).toMatchObject({
      street: 'Praterstraße 25/3/12',
      zip: '1020',
      city: 'Wien',
      countryCode: 'AT',
      country: 'Österreich',
    });
    expect(r.card.phones[0].number).toMatch(/^\+4312345678/);
  });

  it('takes the name from the closing line and ignores the quoted message below', () => {
    const r = extractContact(INFORMAL_REPLY, 'de');
    expect(r.person).toMatchObject({ firstname: 'Tom', lastname: null });
    expect(r.card.emails).toEqual([]);
    expect(r.card.business).toBeNull();
  });

  it('finds no person in a shared mailbox signature, but the company and its contacts', () => {
    const r = extractContact(SHARED_MAILBOX, 'de');
    expect(r.person).toEqual({ salutation: null, title: null, firstname: null, lastname: null });
    expect(r.card.business).toBe('Beispiel Versand GmbH');
    expect(r.card.addresses[0]).toMatchObject({
      street: 'Hauptstr. 5',
      zip: '10115',
      city: 'Berlin',
      countryCode: 'DE',
    });
    expect(r.card.phones).toEqual([{ number: '+493012345678', type: 'landline' }]);
    expect(r.confidence.firstname).toBeNull();
  });

  it('names countries in the caller language and is deterministic', () => {
    const en = extractContact(GERMAN_FULL, 'en');
    expect(en.card.addresses[0].country).toBe('Germany');
    expect(extractContact(GERMAN_FULL, 'en')).toEqual(en);
  });

  it('answers an empty card for text without contact details', () => {
    const r = extractContact('Das Meeting ist verschoben.', 'de');
    expect(r.card).toEqual({
      business: null,
      businessPositions: [],
      emails: [],
      phones: [],
      addresses: [],
    });
    expect(r.person.lastname).toBeNull();
  });

  it('reads name, position and company from one line; an organisation word names the company', () => {
    const r = extractContact(COMBINED_LINE, 'en');
    expect(r.person).toMatchObject({ firstname: 'Jane', lastname: 'Doe' });
    expect(r.card.businessPositions).toEqual([{ position: 'CTO & Co-Founder', department: null }]);
    expect(r.card.business).toBe('Example Labs');
    expect(r.confidence.business).toBe(0.6);
    expect(r.card.phones).toEqual([{ number: '+14155550132', type: null }]);
  });

  it('drops "i. A." and reads a department behind the role', () => {
    const r = extractContact(ON_BEHALF, 'de');
    expect(r.person).toMatchObject({ firstname: 'Petra', lastname: 'Klein' });
    expect(r.card.businessPositions).toEqual([
      { position: 'Sachbearbeiterin Buchhaltung', department: 'Buchhaltung' },
    ]);
    expect(r.card.business).toBe('Klein & Partner Steuerberatungsgesellschaft mbH');
    expect(r.card.phones).toEqual([{ number: '+492219876543', type: 'landline' }]);
    expect(r.confidence.lastname).toBeGreaterThanOrEqual(0.9);
  });

  it('reads "FAMILY, Given" and a department before the role', () => {
    const r = extractContact(REVERSED_CAPS, 'en');
    expect(r.person).toMatchObject({ firstname: 'Thomas', lastname: 'Müller' });
    expect(r.card.businessPositions).toEqual([
      { position: 'Procurement Specialist', department: 'Procurement' },
    ]);
    expect(r.card.business).toBe('Nordic Trading AB');
  });

  it('guesses the company from a personal address only weakly, never from a mail provider', () => {
    const own = extractContact('Max Weber\nmax.weber@weber-design.de', 'de');
    expect(own.card.business).toBe('Weber-Design');
    expect(own.confidence.business).toBe(0.3);
    const free = extractContact('Max Weber\nmax.weber@gmx.de', 'de');
    expect(free.card.business).toBeNull();
    expect(free.person).toMatchObject({ firstname: 'Max', lastname: 'Weber' });
  });

  it('falls back to the e-mail address for the name, with low confidence', () => {
    const r = extractContact('Sent from my phone\nlaura.fischer@example.org', 'en');
    expect(r.person).toMatchObject({ firstname: 'Laura', lastname: 'Fischer' });
    expect(r.confidence.lastname).toBe(0.4);
  });

  it('reads 20000 characters quickly, the signature at the end of a long mail', () => {
    const body = 'Lorem ipsum dolor sit amet, 12345 consectetur adipiscing elit. '.repeat(280);
    const text = `${body}\n\n${GERMAN_FULL}`.slice(-20000);
    const started = Date.now();
    const r = extractContact(text, 'de');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.person.lastname).toBe('Schmidt');
  });
});
