export * from './messages';
export * from './wording';
export * from './l10n';
export * from './draft';
export * from './drop';
