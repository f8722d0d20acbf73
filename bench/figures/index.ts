// Every figure (issue 8's B1–B9, issue 19's B14), in the order a full run measures them.
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
import { b14 } from './b14ManagedTurn';

export const figures: readonly Figure[] = [b1, b2, b3, b4, b5, b6, b7, b8, b9, b14];
