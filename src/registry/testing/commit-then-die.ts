/**
 * A process that commits to a SQLite registry store and is killed before it closes it: the
 * store test runs it as a child (`node --import tsx commit-then-die.ts PATH`) and then reopens
 * PATH. It publishes generations 1 and 2 of the fixture key, records and consumes one lease,
 * prints `committed`, and sends itself SIGKILL (no close, no checkpoint, no exit handlers).
 * Not part of the library.
 */
import { writeSync } from 'node:fs';
import { openSqliteStore } from '../sqlite-store.ts';
import { callReceiptFor, generationAt, leases, receiptOf, STORE_KEY } from './store-fixtures.ts';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: commit-then-die.ts PATH');
const store = openSqliteStore({ path });
const [first, second] = [generationAt(1, 3), generationAt(2, 4)];
store.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
store.compareAndSet(STORE_KEY, 1, second, receiptOf(second));
const [lease] = leases(1);
if (lease === undefined) throw new Error('no lease');
store.recordLease(lease);
store.consumeLease(callReceiptFor(lease, 1_200));
writeSync(1, 'committed\n');
process.kill(process.pid, 'SIGKILL');
