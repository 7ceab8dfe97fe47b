// Command k2s-cli-double does what K2s's own CLI does to host DNS on `k2s stop` and
// `k2s uninstall` on native Linux, so the e2e tests can run it against a K2s DNS that runs
// (e2e/debian-host-k2s-cli.e2e.test.ts). Written from K2s's public source, package
// setuporchestration (k2s/internal/core/setuporchestration, the Linux orchestrator:
// stopHostDNS, removeDNSProxy, restoreResolverState, setResolverImmutable); it is not K2s's
// code. What matters is the decoding: Go's encoding/json into K2s's resolverState struct,
// whose field names match case-insensitively, ignores every other member, decodes []byte from
// standard base64 and leaves a missing member at its zero value.
//
// Usage: k2s-cli-double stop|uninstall   (as root; config dir /var/lib/k2s as K2s's on Linux)
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const (
	configDir         = "/var/lib/k2s"
	resolverStateFile = "dns-resolver-state.json"
	resolverPath      = "/etc/resolv.conf"
	dnsProxyService   = "k2s-dnsproxy"
	dnsProxyConfig    = "/etc/k2s/dnsproxy.yaml"
	resolverHeader    = "# Managed by K2s native Linux installation; restored by k2s stop or uninstall"
)

// resolverState has K2s's field names and types (its resolverState).
type resolverState struct {
	Mode         os.FileMode `json:"mode"`
	LinkTarget   string      `json:"linkTarget,omitempty"`
	Content      []byte      `json:"content,omitempty"`
	WasImmutable bool        `json:"wasImmutable"`
}

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func immutable() (bool, error) {
	out, err := exec.Command("lsattr", "-d", resolverPath).Output()
	if err != nil {
		return false, fmt.Errorf("inspect immutable attribute on %s: %w", resolverPath, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return false, fmt.Errorf("no immutable attribute output for %s", resolverPath)
	}
	return strings.Contains(fields[0], "i"), nil
}

func setImmutable(want bool) error {
	cur, err := immutable()
	if err != nil {
		return err
	}
	if cur == want {
		return nil
	}
	flag := "-i"
	if want {
		flag = "+i"
	}
	return run("chattr", flag, resolverPath)
}

// restoreResolverState: nothing when there is no state file or the current file does not start
// with K2s's header; otherwise the saved file or link replaces it.
func restoreResolverState() error {
	data, err := os.ReadFile(filepath.Join(configDir, resolverStateFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read saved resolver state: %w", err)
	}
	var state resolverState
	if err := json.Unmarshal(data, &state); err != nil {
		return fmt.Errorf("parse saved resolver state: %w", err)
	}
	current, err := os.ReadFile(resolverPath)
	if err != nil {
		return fmt.Errorf("read current resolver configuration: %w", err)
	}
	if !strings.HasPrefix(string(current), resolverHeader) {
		return nil
	}
	if err := setImmutable(false); err != nil {
		return err
	}
	if err := os.Remove(resolverPath); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove K2s resolver configuration: %w", err)
	}
	if state.LinkTarget != "" {
		if err := os.Symlink(state.LinkTarget, resolverPath); err != nil {
			return fmt.Errorf("restore resolver symlink: %w", err)
		}
	} else if err := os.WriteFile(resolverPath, state.Content, state.Mode.Perm()); err != nil {
		return fmt.Errorf("restore resolver configuration: %w", err)
	}
	if state.WasImmutable {
		return setImmutable(true)
	}
	return nil
}

func main() {
	if len(os.Args) != 2 || (os.Args[1] != "stop" && os.Args[1] != "uninstall") {
		fmt.Fprintln(os.Stderr, "usage: k2s-cli-double stop|uninstall")
		os.Exit(2)
	}
	if err := restoreResolverState(); err != nil {
		if os.Args[1] == "stop" {
			fmt.Fprintln(os.Stderr, "k2s-cli-double stop:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "k2s-cli-double uninstall: could not restore host resolver:", err)
	}
	if os.Args[1] == "stop" {
		if err := run("systemctl", "stop", dnsProxyService); err != nil {
			fmt.Fprintln(os.Stderr, "k2s-cli-double stop: stop DNS proxy:", err)
			os.Exit(1)
		}
		return
	}
	unit := filepath.Join("/etc/systemd/system", dnsProxyService+".service")
	if _, err := os.Stat(unit); err == nil {
		_ = run("systemctl", "disable", "--now", dnsProxyService)
	}
	_ = os.Remove(unit)
	_ = os.Remove(dnsProxyConfig)
	_ = os.Remove(filepath.Join(configDir, resolverStateFile))
	_ = run("systemctl", "daemon-reload")
}
