export * from './messages';
export * from './l10n';
export * from './draft';
export * from './drop';
export * from './variants';
export * from './context';
