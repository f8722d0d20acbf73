// Numbered migrations of a team database. Migration N brings letagents_schema.version from
// N-1 to N. Append only: a released migration never changes. Each SQLite migration has its
// PostgreSQL twin at the same number (a test compares the schemas).
import { pgMigration001 } from './001_initial';
import { pgMigration002 } from './002_eventConcerns';
import { pgMigration003 } from './003_managedAgents';
import { pgMigration004 } from './004_delivery';
import { pgMigration005 } from './005_places';
import { pgMigration006 } from './006_agentWaiting';
import { pgMigration007 } from './007_approvals';
import { pgMigration008 } from './008_copilot';
import { pgMigration009 } from './009_openLists';
import { pgMigration010 } from './010_changeTracking';
import { pgMigration011 } from './011_teamManaged';
import { pgMigration012 } from './012_phone';
import { pgMigration013 } from './013_automations';
import { pgMigration014 } from './014_routedTo';
import { pgMigration015 } from './015_broadcastTurns';
import { pgMigration016 } from './016_memberChanges';
import { pgMigration017 } from './017_approvalWaits';

export const pgMigrations: readonly string[] = [pgMigration001, pgMigration002, pgMigration003, pgMigration004, pgMigration005, pgMigration006, pgMigration007, pgMigration008, pgMigration009, pgMigration010, pgMigration011, pgMigration012, pgMigration013, pgMigration014, pgMigration015, pgMigration016, pgMigration017];
export const PG_SCHEMA_VERSION = pgMigrations.length;
