// Every figure (issue 8; B12 from issue 13; B13 from issue 18; B14 from issue 19; B15 from issue 26; B10, B11 and P1, the storage port's overhead, from issue 12; B16 and B17 from issue 29; B18 from issue 25; B19 from issue 34; W1 from issue 28; B21 from issue 32; B22 and B23 from issue 36; B24 from issue 37), in the order a full run measures them.
import type { Figure } from '../lib/figure';
import { b1 } from './b1SendRoundTrip';
import { b2 } from './b2ReadNewest';
import { b3 } from './b3WakeFifty';
import { b4 } from './b4SustainedWrites';
import { b5 } from './b5HelperLaunch';
import { b6 } from './b6ColdStart';
import { b7 } from './b7FleetMemory';
import { b8 } from './b8Ui';
import { b9 } from './b9Search';
import { b10 } from './b10CrossMachineWake';
import { b11 } from './b11TeamSend';
import { b12 } from './b12ToolList';
import { b13 } from './b13WakesPerRound';
import { b14 } from './b14ManagedTurn';
import { b15 } from './b15ChannelPush';
import { b16 } from './b16FiftyMachines';
import { b17 } from './b17PooledSend';
import { b18 } from './b18ChatterTurns';
import { b19 } from './b19UntaggedFollowUp';
import { b21 } from './b21PollCost';
import { b22 } from './b22AutomationsIdle';
import { b23 } from './b23AutomationTrigger';
import { b24 } from './b24Phone';
import { p1 } from './p1StoragePort';
import { w1 } from './w1WorktreeOverhead';

export const figures: readonly Figure[] = [b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b21, b22, b23, b24, w1, p1];
