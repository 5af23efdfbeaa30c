/** Spec §9: the support hours both policies quote. */
export const SUPPORT_HOURS = 'Monday-Friday, 9:00 AM to 5:00 PM BST';
export const SUPPORT_REPLY = 'We reply in about 24 hours.';
