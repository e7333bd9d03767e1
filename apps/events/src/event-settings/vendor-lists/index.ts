export * from './online-meeting-platforms';
export * from './tax-rates';
