// Spec §8 texts for the payment settings (now a courier's rate cards), and the re-price words.
export const rateCardMessages = {
  loadFailed: 'Failed to load payment settings',
  saveFailed: 'Failed to save payment settings',
  saved: 'Payment settings saved successfully!',
} as const;
