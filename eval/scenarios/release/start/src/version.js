/** The version this build reports. */
export const VERSION = '1.2.0';
