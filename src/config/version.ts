/** The service's version, from its package.json. */
import { PROJECT_ROOT } from '../core/project-root.js';

export const VERSION = PROJECT_ROOT?.version ?? '0.0.0';
