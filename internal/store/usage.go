package store

import (
	"context"
	"database/sql"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/bundle"
)

// usageSchema is migration 12: what each signer's bundles cost in
// simulation and paid the validator, all time and per hour for the last
// week (flashbots_getUserStatsV2's windows). Wei amounts are kept as whole
// gwei plus the wei below a gwei, two BIGINT columns that both dialects add
// in an upsert: a BIGINT of gwei holds 9.2e9 ETH, and the sub-gwei column
// grows by less than 1e9 per flush.
const usageSchema = `CREATE TABLE user_usage (
		address {blob} PRIMARY KEY,
		gas_simulated BIGINT NOT NULL DEFAULT 0,
		paid_gwei BIGINT NOT NULL DEFAULT 0,
		paid_wei BIGINT NOT NULL DEFAULT 0
	);
	CREATE TABLE user_usage_hourly (
		address {blob} NOT NULL,
		hour BIGINT NOT NULL,
		gas_simulated BIGINT NOT NULL DEFAULT 0,
		paid_gwei BIGINT NOT NULL DEFAULT 0,
		paid_wei BIGINT NOT NULL DEFAULT 0,
		PRIMARY KEY (address, hour)
	);
	CREATE INDEX user_usage_hourly_by_hour ON user_usage_hourly(hour)`

// UsageHours is how many hourly buckets a signer's usage keeps: the last 7
// days' window. Older buckets are deleted; the all-time total has them.
const UsageHours = 7 * 24

var gwei = big.NewInt(1e9)

// splitWei returns v as whole gwei and the wei below a gwei.
func splitWei(v *big.Int) (gweis, wei int64) {
	if v == nil || v.Sign() <= 0 {
		return 0, 0
	}
	q, r := new(big.Int).QuoRem(v, gwei, new(big.Int))
	return q.Int64(), r.Int64()
}

// joinWei is splitWei's inverse.
func joinWei(gweis, wei int64) *big.Int {
	v := new(big.Int).Mul(big.NewInt(gweis), gwei)
	return v.Add(v, big.NewInt(wei))
}

// addUsage adds the deltas' usage, all time and per hour, within tx, and
// deletes the hourly buckets that left the 7-day window (measured from the
// newest hour written, so the store needs no clock).
func (s *sqlStore) addUsage(ctx context.Context, tx *sql.Tx, deltas []UserStat) error {
	total := s.d.rebind(`INSERT INTO user_usage (address, gas_simulated, paid_gwei, paid_wei) VALUES (?, ?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET
			gas_simulated = user_usage.gas_simulated + excluded.gas_simulated,
			paid_gwei = user_usage.paid_gwei + excluded.paid_gwei,
			paid_wei = user_usage.paid_wei + excluded.paid_wei`)
	hourly := s.d.rebind(`INSERT INTO user_usage_hourly (address, hour, gas_simulated, paid_gwei, paid_wei) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (address, hour) DO UPDATE SET
			gas_simulated = user_usage_hourly.gas_simulated + excluded.gas_simulated,
			paid_gwei = user_usage_hourly.paid_gwei + excluded.paid_gwei,
			paid_wei = user_usage_hourly.paid_wei + excluded.paid_wei`)
	newest := int64(-1)
	for _, d := range deltas {
		if len(d.Hours) == 0 {
			continue
		}
		g, w := splitWei(d.AllTime.ValidatorPayments)
		if _, err := tx.ExecContext(ctx, total, d.Address[:], int64(d.AllTime.GasSimulated), g, w); err != nil {
			return err
		}
		for h, u := range d.Hours {
			g, w := splitWei(u.ValidatorPayments)
			if _, err := tx.ExecContext(ctx, hourly, d.Address[:], h, int64(u.GasSimulated), g, w); err != nil {
				return err
			}
			newest = max(newest, h)
		}
	}
	if newest < 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM user_usage_hourly WHERE hour <= ?`), newest-UsageHours)
	return err
}

// readUsage fills u's all-time usage and hourly buckets.
func (s *sqlStore) readUsage(ctx context.Context, u *UserStat) error {
	var gas, g, w int64
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT gas_simulated, paid_gwei, paid_wei FROM user_usage WHERE address = ?`), u.Address[:]).Scan(&gas, &g, &w)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	u.AllTime = bundle.Usage{GasSimulated: uint64(gas), ValidatorPayments: joinWei(g, w)}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT hour, gas_simulated, paid_gwei, paid_wei FROM user_usage_hourly WHERE address = ?`), u.Address[:])
	if err != nil {
		return err
	}
	defer rows.Close()
	u.Hours = map[int64]bundle.Usage{}
	for rows.Next() {
		var h int64
		if err := rows.Scan(&h, &gas, &g, &w); err != nil {
			return err
		}
		u.Hours[h] = bundle.Usage{GasSimulated: uint64(gas), ValidatorPayments: joinWei(g, w)}
	}
	return rows.Err()
}

// windows sets u's Last7d and Last1d from its hourly buckets, as of hour
// now (unix hours).
func (u *UserStat) windows(now int64) {
	u.Last7d, u.Last1d = bundle.Usage{}, bundle.Usage{}
	for h, v := range u.Hours {
		if h > now-UsageHours && h <= now {
			u.Last7d.Add(v)
		}
		if h > now-24 && h <= now {
			u.Last1d.Add(v)
		}
	}
}

// addUsage adds o's usage (all time and hourly) to u.
func (u *UserStat) addUsage(o *UserStat) {
	u.AllTime.Add(o.AllTime)
	if len(o.Hours) > 0 && u.Hours == nil {
		u.Hours = map[int64]bundle.Usage{}
	}
	for h, v := range o.Hours {
		cur := u.Hours[h]
		cur.Add(v)
		u.Hours[h] = cur
	}
}

// AddUsage counts what addr's bundles cost in simulation and paid the
// validator, in the current hour's bucket (bundle.UsageCounter). Like Add,
// it is a map update; the flush writes it.
func (b *StatsBuffer) AddUsage(addr common.Address, use bundle.Usage) {
	if addr == (common.Address{}) || use.GasSimulated == 0 && use.Payments().Sign() == 0 {
		return
	}
	t := b.now()
	now, hour := t.UnixMilli(), t.Unix()/3600
	b.mu.Lock()
	defer b.mu.Unlock()
	u := b.pending[addr]
	if u == nil {
		u = &UserStat{Address: addr, SignerStats: bundle.SignerStats{FirstSeen: now, LastSeen: now}}
		b.pending[addr] = u
	}
	u.addUsage(&UserStat{SignerStats: bundle.SignerStats{AllTime: use}, Hours: map[int64]bundle.Usage{hour: use}})
}
