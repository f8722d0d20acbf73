// Numbered migrations. Migration N brings a database from user_version N-1 to N.
// Append only: a released migration never changes.
import { migration001 } from './001_initial';
import { migration002 } from './002_eventConcerns';
import { migration003 } from './003_managedAgents';
import { migration004 } from './004_delivery';
import { migration005 } from './005_places';
import { migration006 } from './006_agentWaiting';
import { migration007 } from './007_approvals';
import { migration008 } from './008_copilot';
import { migration009 } from './009_openLists';
import { migration010 } from './010_changeTracking';
import { migration011 } from './011_teamManaged';
import { migration012 } from './012_phone';
import { migration013 } from './013_automations';
import { migration014 } from './014_routedTo';
import { migration015 } from './015_broadcastTurns';
import { migration016 } from './016_memberChanges';
import { migration017 } from './017_approvalWaits';

export const migrations: readonly string[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008, migration009, migration010, migration011, migration012, migration013, migration014, migration015, migration016, migration017];
export const SCHEMA_VERSION = migrations.length;
