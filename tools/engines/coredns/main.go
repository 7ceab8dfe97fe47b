// Command coredns is CoreDNS built with only the plugins the test bed's Corefiles use
// (fixtures/k8s/configmap-coredns.json and the loop reproduction), the upstream way of
// trimming a build: coremain plus blank imports plus the Directives order.
// Source of the pattern: coredns/coredns core/dnsserver/zdirectives.go and plugin.cfg.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/file"
	_ "github.com/coredns/coredns/plugin/forward"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/hosts"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/loop"
	_ "github.com/coredns/coredns/plugin/metrics"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/reload"
	_ "github.com/coredns/coredns/plugin/rewrite"
	_ "github.com/coredns/coredns/plugin/template"
	_ "github.com/coredns/coredns/plugin/whoami"
)

// directives is the upstream plugin.cfg order (execution order), restricted to the plugins above.
var directives = []string{
	"reload", "bind", "ready", "health", "prometheus", "errors", "log",
	"loadbalance", "cache", "rewrite", "template", "hosts", "kubernetes",
	"file", "loop", "forward", "whoami",
}

func init() { dnsserver.Directives = directives }

func main() { coremain.Run() }
