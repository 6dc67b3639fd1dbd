// sdkgen writes the Python, Node.js and Go SDKs of the svc package from its schema (schema/schema.json),
// with Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen), at the version the
// repository's Pulumi CLI is built from (tools/pulumi/go.mod). It runs offline: no language host and no
// plugin is needed.
//
//	go run . -schema ../../schema/schema.json -out ../../sdk -version 0.1.0 [python nodejs go]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

const tool = "pulumi-svc-sdkgen"

func main() {
	schemaPath := flag.String("schema", "schema/schema.json", "the package schema")
	outDir := flag.String("out", "sdk", "the folder that receives one folder per language")
	version := flag.String("version", "", "the package version the SDKs carry (default: the schema's)")
	flag.Parse()
	languages := flag.Args()
	if len(languages) == 0 {
		languages = []string{"python", "nodejs", "go"}
	}
	if err := run(*schemaPath, *outDir, *version, languages); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, outDir, version string, languages []string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	if version != "" {
		spec.Version = version
	}
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s is not a valid package schema: %v", schemaPath, diags)
	}
	for _, lang := range languages {
		var files map[string][]byte
		switch lang {
		case "python":
			files, err = python.GeneratePackage(tool, pkg, nil, noOtherPackages{})
		case "nodejs":
			files, err = nodejs.GeneratePackage(tool, pkg, nil, nil, false, noOtherPackages{})
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
		default:
			return fmt.Errorf("no generator for %q (python, nodejs, go)", lang)
		}
		if err != nil {
			return fmt.Errorf("%s SDK: %w", lang, err)
		}
		if err := write(filepath.Join(outDir, lang), files); err != nil {
			return err
		}
		fmt.Printf("%s: %d files in %s\n", lang, len(files), filepath.Join(outDir, lang))
	}
	return nil
}

// write replaces the folder's contents with the generated files.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noOtherPackages is the loader of a schema that references no other package (only pulumi.json's
// builtins): asking for one is an error, so no plugin is ever looked for or downloaded.
type noOtherPackages struct{}

func (noOtherPackages) refuse(name string) error {
	return fmt.Errorf("the svc schema references the package %q; sdkgen loads no other package", name)
}

func (l noOtherPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.refuse(pkg)
}

func (l noOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refuse(d.Name)
}

func (l noOtherPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.refuse(pkg)
}

func (l noOtherPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, l.refuse(d.Name)
}
