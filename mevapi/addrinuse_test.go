package mevapi

import (
	"net"
	"strings"
	"testing"
)

// TestListenerAddressInUse: a port another process holds is an error that
// names the flag choosing the address.
func TestListenerAddressInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := New(Config{Addr: l.Addr().String()}, nil)
	err = s.Start()
	if err == nil {
		s.Stop()
		t.Fatal("started on a port in use")
	}
	if !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "choose another address with --mev.addr") {
		t.Fatalf("port in use: %v", err)
	}
}
