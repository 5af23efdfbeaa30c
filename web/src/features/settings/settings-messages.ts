// Spec §8 texts for the payment settings screen.
export const settingsMessages = {
  loadFailed: 'Failed to load payment settings',
  saveFailed: 'Failed to save payment settings',
  saved: 'Payment settings saved successfully!',
} as const;
