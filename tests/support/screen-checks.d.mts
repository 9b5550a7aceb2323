export const SCREEN_CHECKS_DIR: string;
export const SCREEN_CHECKS_FILE: string;
export interface ScreenCheck {
  route: string | null;
  lang: string;
  overflow: number;
  journey: string;
}
export function readScreenChecks(file?: string): ScreenCheck[];
