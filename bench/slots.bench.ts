/**
 * Micro-benchmarks of the slot engine (packages/shared/src/scheduling/slots.ts), called by bench/run.ts.
 * Goals (issue "Slot engine"): the slots of one vet over the full 10-week window in ≤ 5 ms, and "vets with
 * availability on a date" over 100 vets in ≤ 20 ms. Each figure is the median of many timed repetitions
 * after a warm-up; inputs are built once, deterministically, outside the timed code.
 */
import {
  type AvailabilityProfile,
  type BusyRange,
  findFreeSlots,
  hasFreeSlotOnViewerDate,
} from '../packages/shared/src/scheduling/slots.ts';
import { addDaysToDateKey, zonedWallTimeToInstant } from '../packages/shared/src/scheduling/zoned-time.ts';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  goal: number;
}

const ZONES = ['Europe/Lisbon', 'Atlantic/Azores', 'America/Sao_Paulo', 'America/New_York'];
/** A fixed clock: Monday 2026-03-02 08:00 UTC, so the 10-week window crosses the March DST changes. */
const NOW = new Date('2026-03-02T08:00:00Z');
const TODAY = '2026-03-02';
const WINDOW_DAYS = 70;
const BUSY_PER_VET = 200;

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same work. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Weekdays 09:00–13:00 and 14:00–18:00, 30-minute slots every 30 minutes, bookable 10 weeks ahead. */
function realisticProfile(timezone: string): AvailabilityProfile {
  const workingIntervals = [
    { start: '09:00', end: '13:00' },
    { start: '14:00', end: '18:00' },
  ];
  return {
    durationMinutes: 30,
    availabilityStep: 30,
    timeAvailableFor: 'P10W',
    workHours: {
      timezone,
      daySchedules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, workingIntervals })),
    },
    availabilityIntervals: {
      intervals: [
        { dateStartInclusive: addDaysToDateKey(TODAY, 17), hours: [] },
        { dateStartInclusive: addDaysToDateKey(TODAY, 30), hours: [{ start: '10:00', end: '12:00' }] },
      ],
    },
  };
}

/** `count` bookings of one slot each on random weekdays of the window, at slot boundaries, in vet time. */
function randomBookings(timezone: string, count: number, next: () => number): BusyRange[] {
  const busy: BusyRange[] = [];
  while (busy.length < count) {
    const dateKey = addDaysToDateKey(TODAY, Math.floor(next() * WINDOW_DAYS));
    const slotIndex = Math.floor(next() * 16);
    const minutes = (slotIndex < 8 ? 9 * 60 : 14 * 60 - 8 * 30) + slotIndex * 30;
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const start = zonedWallTimeToInstant(dateKey, time, timezone);
    busy.push({ start, end: new Date(start.getTime() + 30 * 60_000) });
  }
  return busy;
}

/** Median wall time in ms of `run`, over `repetitions` timed calls after `warmup` untimed ones. */
function medianMs(run: () => unknown, repetitions: number, warmup: number): number {
  let sink = 0;
  for (let i = 0; i < warmup; i += 1) sink ^= run() ? 1 : 0;
  const samples: number[] = [];
  for (let i = 0; i < repetitions; i += 1) {
    const started = performance.now();
    sink ^= run() ? 1 : 0;
    samples.push(performance.now() - started);
  }
  if (sink === 2) console.log(sink); // Keeps the results observable so the calls cannot be optimised away.
  samples.sort((a, b) => a - b);
  const middle = samples.length >> 1;
  return samples.length % 2 === 1 ? samples[middle]! : (samples[middle - 1]! + samples[middle]!) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export async function benchSlots(): Promise<BenchResult[]> {
  const next = random(20_260_302);

  // (i) One vet, full window.
  const profile = realisticProfile('Europe/Lisbon');
  const busy = randomBookings('Europe/Lisbon', BUSY_PER_VET, next);
  const oneVet = medianMs(() => findFreeSlots(profile, { now: NOW, busy }).length > 0, 200, 20);

  // (ii) 100 vets, one date as a customer in Lisbon sees it; every fourth vet is fully booked that day,
  // so its search cannot stop early.
  const viewerDate = addDaysToDateKey(TODAY, 23); // Wednesday 2026-03-25
  const vets = Array.from({ length: 100 }, (_, i) => {
    const timezone = ZONES[i % ZONES.length]!;
    const vetProfile = realisticProfile(timezone);
    const vetBusy = randomBookings(timezone, BUSY_PER_VET, next);
    if (i % 4 === 3) {
      for (const dateKey of [addDaysToDateKey(viewerDate, -1), viewerDate, addDaysToDateKey(viewerDate, 1)]) {
        vetBusy.push({
          start: zonedWallTimeToInstant(dateKey, '00:00', timezone),
          end: zonedWallTimeToInstant(dateKey, '24:00', timezone),
        });
      }
    }
    return { profile: vetProfile, busy: vetBusy };
  });
  const hundredVets = medianMs(
    () =>
      vets.filter((vet) =>
        hasFreeSlotOnViewerDate(vet.profile, viewerDate, 'Europe/Lisbon', { now: NOW, busy: vet.busy }),
      ).length,
    100,
    10,
  );

  return [
    { name: 'findFreeSlots: one vet, P10W window, 200 bookings', value: round(oneVet), unit: 'ms', goal: 5 },
    {
      name: 'hasFreeSlotOnViewerDate: 100 vets, one date, 200 bookings each',
      value: round(hundredVets),
      unit: 'ms',
      goal: 20,
    },
  ];
}
