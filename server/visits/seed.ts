// A week of visits for the seeded `visitor` (three days back, today, three days ahead) with the seeded staff as
// hosts, so that a new `npm start` shows MyVisits and VisitList populated in every status (spec §4).
import type { HistoryAction, VisitStatus } from '../../contract/api/visits';
import { dateIn, zonedInstant } from '../../contract/domain/visits';
import { clockFromEnv } from '../clock';
import type { Seeder } from '../db/seeder';
import { appendHistory } from './store';

const HOSTS = [
  'receptionist',
  'assistant',
  'usermanager',
  'accountmanager',
  'auditor',
  'admin',
  'receptionist',
];
const TITLES = [
  'Reunión de seguimiento',
  'Auditoría de sala',
  'Entrevista',
  'Revisión de contrato',
  'Formación de personal',
  'Visita de mantenimiento',
  'Presentación de proveedores',
];

interface Plan {
  day: number;
  status: VisitStatus;
  history: [HistoryAction, 'visitor' | 'host' | 'automatic' | 'kiosk' | 'terminal', number][];
}

// Each history event with who and its offset in hours from the arrival.
const PLANS: Plan[] = [
  {
    day: -3,
    status: 'checked_out',
    history: [
      ['requested', 'visitor', -50],
      ['approved', 'host', -48],
      ['checked_in', 'kiosk', 0],
      ['checked_out', 'terminal', 2],
    ],
  },
  {
    day: -2,
    status: 'checked_out',
    history: [
      ['requested', 'visitor', -30],
      ['approved', 'host', -29],
      ['checked_in', 'kiosk', 0],
      ['checked_out', 'terminal', 1],
    ],
  },
  {
    day: -1,
    status: 'cancelled',
    history: [
      ['requested', 'visitor', -26],
      ['rejected', 'host', -20],
    ],
  },
  {
    day: 0,
    status: 'accepted',
    history: [
      ['requested', 'visitor', -24],
      ['approved', 'host', -22],
    ],
  },
  { day: 1, status: 'requested', history: [['requested', 'visitor', -20]] },
  {
    day: 2,
    status: 'accepted',
    history: [
      // Booked by its host: the one request accepted at once.
      ['requested', 'host', -40],
      ['approved', 'automatic', -40],
    ],
  },
  { day: 3, status: 'requested', history: [['requested', 'visitor', -30]] },
];

/**
 * When the seeded visitor's visit of today starts: three hours from `now` (on a quarter hour), so that it is not under
 * way, but never past 23:59 of today in the facility's timezone: seeded in the evening, three hours on were tomorrow
 * there, and reception found no visit today for the visitor.
 */
export function todaysVisitStart(now: Date, timeZone: string): Date {
  const inThreeHours = new Date(Math.ceil((now.getTime() + 3 * 3600_000) / 900_000) * 900_000);
  const lastMinute = zonedInstant(dateIn(now, timeZone), '23:59', timeZone) as Date;
  return inThreeHours < lastMinute ? inThreeHours : lastMinute;
}

export const seedVisits: Seeder = async (tx, tenant) => {
  const { rows: people } = await tx.query<{ id: string; username: string; email: string; name: string }>(
    `select id::text as id, username, email, trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) as name
       from accounts where tenant = $1 and username = any($2::text[])`,
    [tenant, ['visitor', ...HOSTS]],
  );
  const visitor = people.find((p) => p.username === 'visitor');
  const { rows: facilities } = await tx.query<{ facility_id: string; timezone: string }>(
    'select facility_id, timezone from facilities where tenant = $1 order by alias',
    [tenant],
  );
  if (!visitor || facilities.length === 0) return;
  // The visit rules' clock (CLOCK_AT outside production), so a pinned day has its week of visits around it.
  const now = clockFromEnv().now();
  for (const [index, plan] of PLANS.entries()) {
    const host = people.find((p) => p.username === HOSTS[index]);
    const facility = facilities[index % facilities.length];
    if (!host || !facility) continue;
    // 10:00 in the facility's timezone; today's visit later today (todaysVisitStart).
    const start =
      plan.day === 0
        ? todaysVisitStart(now, facility.timezone)
        : (zonedInstant(
            dateIn(new Date(now.getTime() + plan.day * 86_400_000), facility.timezone),
            '10:00',
            facility.timezone,
          ) as Date);
    const end = new Date(start.getTime() + 90 * 60_000);
    const { rows } = await tx.query<{ id: string }>(
      `insert into visits (tenant, title, expected_at, leaving_at, host_email, host_account_id, facility_id,
         visitor_account_id, visitor_name, visitor_email, guests, status, created_by, created_at, extra_fields)
       values ($1, $2, $3, $4, $5, $6::uuid, $7, $8::uuid, $9, $10, $11, $12, $14::uuid, $13,
         '{"emergency_instructions":{"accepted":true}}'::jsonb)
       returning visit_id::text as id`,
      [
        tenant,
        TITLES[index],
        start,
        end,
        host.email,
        host.id,
        facility.facility_id,
        visitor.id,
        visitor.name,
        visitor.email,
        index % 3,
        plan.status,
        new Date(start.getTime() + (plan.history[0]?.[2] ?? 0) * 3600_000),
        plan.history[0]?.[1] === 'host' ? host.id : visitor.id,
      ],
    );
    const id = rows[0]?.id;
    if (!id) continue;
    for (const [action, who, hours] of plan.history) {
      const actor = who === 'visitor' ? visitor.name : who === 'host' ? host.name : who;
      await appendHistory(tx, tenant, id, {
        action,
        actor,
        at: new Date(start.getTime() + hours * 3600_000),
      });
    }
  }
};
