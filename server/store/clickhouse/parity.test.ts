// Parity of the shared store with the embedded one, on one ClickHouse node and on a two-shard
// cluster (two server processes, Distributed tables): testing/parity.ts says what is compared.
import { parityTests } from './testing/parity.ts';

parityTests([1, 2]);
