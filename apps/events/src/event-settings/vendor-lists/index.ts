export * from './online-meeting-platforms';
export * from '@crm/tax-rates';
