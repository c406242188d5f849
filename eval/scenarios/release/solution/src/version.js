/** The version this build reports. */
export const VERSION = '1.3.0';
