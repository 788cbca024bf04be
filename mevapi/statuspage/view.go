package statuspage

import (
	"fmt"
	"html/template"
	"math/big"
	"net/url"
	"strconv"
	"strings"

	"github.com/gavel-eth/gavel/eth/relaystatus"
)

// view is the snapshot in the shape the template prints: every value is a
// string or number the template escapes.
type view struct {
	S          *relaystatus.Snapshot
	ConnectURL string
	Taken      string
	Plot       plotView
}

func newView(s *relaystatus.Snapshot, scheme, host string) view {
	if host == "" {
		host = "HOST"
	}
	v := view{S: s, Taken: s.Taken.UTC().Format("2006-01-02 15:04:05 UTC"), Plot: newPlot(s.Plot)}
	if s.Relay.Pubkey != "" {
		v.ConnectURL = scheme + "://" + s.Relay.Pubkey + "@" + host
	}
	return v
}

var funcs = template.FuncMap{
	"eth":       formatETH,
	"gwei":      formatGwei,
	"short":     shortHex,
	"thousands": thousands,
	"deliveredURL": func(slot uint64) string {
		return "/relay/v1/data/bidtraces/proposer_payload_delivered?slot=" + url.QueryEscape(strconv.FormatUint(slot, 10))
	},
}

// formatETH prints wei as ether with six decimals.
func formatETH(wei *big.Int) string {
	if wei == nil {
		return "-"
	}
	return decimal(wei, 18, 6)
}

// formatGwei prints wei as gwei with three decimals.
func formatGwei(wei *big.Int) string {
	if wei == nil {
		return "-"
	}
	return decimal(wei, 9, 3)
}

// decimal prints v / 10^exp rounded down to digits decimals.
func decimal(v *big.Int, exp, digits int) string {
	neg := v.Sign() < 0
	a := new(big.Int).Abs(v)
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil)
	q, rem := new(big.Int).QuoRem(a, unit, new(big.Int))
	frac := new(big.Int).Quo(rem, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp-digits)), nil))
	s := fmt.Sprintf("%s.%0*d", q, digits, frac)
	if neg {
		s = "-" + s
	}
	return s
}

// shortHex shortens a long 0x string to its first and last characters; the
// page keeps the full value in a title.
func shortHex(s string) string {
	if len(s) <= 18 {
		return s
	}
	return s[:10] + "…" + s[len(s)-6:]
}

// thousands prints n with thin separators between groups of three digits.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// The plot's geometry, in SVG user units: the axes' maximum labels sit
// above the plot area, the slot labels and the legend below it.
const (
	plotW, plotH        = 640, 240
	plotLeft, plotRight = 24, 24
	plotTop, plotBottom = 26, 44
	plotInnerW          = plotW - plotLeft - plotRight
	plotInnerH          = plotH - plotTop - plotBottom
	plotBaseY           = plotTop + plotInnerH
	plotRightX          = plotLeft + plotInnerW
	plotSlotY           = plotBaseY + 16
	plotLegendY         = plotH - 12
	plotLegendX         = plotW/2 - 90
	plotLegendBX        = plotW/2 + 20
)

// plotView is the SVG plot: value bars (left axis, ETH) and the beta gas
// line (right axis, gas) per slot.
type plotView struct {
	W, H, Left, Top, BaseY, RightX, InnerW int
	SlotY, LegendY, LegendX, LegendBX      int
	Bars                                   []bar
	Points                                 string // polyline points of the beta gas
	Dots                                   []dot
	MaxValue, MaxBetaGas                   string
	FirstSlot, LastSlot                    uint64
	Delivered, Empty                       bool
}

type bar struct {
	X, Y, W, H float64
	Title      string
}

type dot struct {
	X, Y  float64
	Title string
}

func newPlot(pts []relaystatus.SlotPoint) plotView {
	p := plotView{W: plotW, H: plotH, Left: plotLeft, Top: plotTop, BaseY: plotBaseY, RightX: plotRightX, InnerW: plotInnerW,
		SlotY: plotSlotY, LegendY: plotLegendY, LegendX: plotLegendX, LegendBX: plotLegendBX, Empty: len(pts) == 0}
	if len(pts) == 0 {
		return p
	}
	p.FirstSlot, p.LastSlot = pts[0].Slot, pts[len(pts)-1].Slot
	maxValue, maxGas := new(big.Int), uint64(0)
	for _, pt := range pts {
		if !pt.Delivered {
			continue
		}
		p.Delivered = true
		if pt.ValueWei != nil && pt.ValueWei.Cmp(maxValue) > 0 {
			maxValue = pt.ValueWei
		}
		maxGas = max(maxGas, pt.BetaGas)
	}
	p.MaxValue, p.MaxBetaGas = formatETH(maxValue)+" ETH", thousands(maxGas)+" gas"
	slotW := float64(plotInnerW) / float64(len(pts))
	fmaxValue, _ := new(big.Float).SetInt(maxValue).Float64()
	var line []string
	for i, pt := range pts {
		if !pt.Delivered {
			continue
		}
		x := float64(plotLeft) + float64(i)*slotW
		if fmaxValue > 0 && pt.ValueWei != nil {
			v, _ := new(big.Float).SetInt(pt.ValueWei).Float64()
			h := v / fmaxValue * float64(plotInnerH)
			p.Bars = append(p.Bars, bar{X: round(x + slotW*0.1), Y: round(float64(plotBaseY) - h), W: round(slotW * 0.8), H: round(h),
				Title: fmt.Sprintf("slot %d: %s ETH", pt.Slot, formatETH(pt.ValueWei))})
		}
		y := float64(plotBaseY)
		if maxGas > 0 {
			y -= float64(pt.BetaGas) / float64(maxGas) * float64(plotInnerH)
		}
		cx := round(x + slotW/2)
		line = append(line, fmt.Sprintf("%g,%g", cx, round(y)))
		p.Dots = append(p.Dots, dot{X: cx, Y: round(y), Title: fmt.Sprintf("slot %d: %s beta gas", pt.Slot, thousands(pt.BetaGas))})
	}
	p.Points = strings.Join(line, " ")
	return p
}

func round(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }
