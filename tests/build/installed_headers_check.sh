#!/usr/bin/env bash
# DESIGN.md section 2: no public header holds a backend's tuning value. Installs the package into a
# scratch prefix (cmake --install copies; it builds nothing), strips the comments of every
# installed header under include/ak with the compiler (`CXX -fpreprocessed -dD -E`: comments go,
# nothing is expanded or included, and its line markers map each line back to the file's own
# line), and fails on anything that would put a tuning value into a user's code.
#
# The vocabulary comes from the installed headers, not from a list here: a tuning type is a struct
# that names itself in `static constexpr std::string_view type_name` (as ak::tuning_type requires;
# those of ak/runtime/hooks.hpp), its members are the tuning fields (hooks.hpp declares them by
# list, `#define AK_<HOOK>_TUNING_FIELDS(F)` with one `F(type, name, ...)` per field, expanded with
# a member macro in each type's body), and the types of its non-int64 members (scan_algorithm,
# sort_algorithm) are the tuning enumerations. A VALUE
# is a numeric literal (optionally signed, parenthesised, shifted, or cast: `1 << 16`,
# `std::int64_t{256}`, `static_cast<...>(8)`) or an enumerator of a tuning enumeration other than
# `not_set`. Names, `unset` and expressions on looked-up values (`.block_size = t.block_size`) are
# not values. The rules, each offence reported as FILE:LINE: [rule] WHAT | LINE'S TEXT:
#   field-value    a tuning field given a VALUE through a member: a designated initialiser
#                  (`.cpu_grain = 4096`, `.cpu_grain{4096}`), an assignment (`t.cpu_grain = 4096`,
#                  `p->cpu_grain += 1`), wherever it is (option structs, algorithm values,
#                  ak::tuning's call argument, scoped_tuning);
#   struct-default a member of a tuning struct whose default is not the unset sentinel (`unset`,
#                  `AK_TUNING_UNSET`, `<enum>::not_set`), or that has no default at all (`T{}`
#                  would make it 0, a value); a member that is not one plain declaration
#                  (`std::int64_t a = unset, b = unset;`) is reported too, and so is a
#                  declaration with another default in a macro that a field list is expanded
#                  with (`#define AK_TUNING_MEMBER(type, name, ...) type name{8};`);
#   field-default  a member, variable or parameter named exactly as a tuning field and declared
#                  with a VALUE (`std::int64_t radix_digit_bits = 11;` in an algorithm value such
#                  as `ak::radix_sort` or an option struct, a local, a default argument);
#   register       a call that registers defaults: `add(<hook>{} ...)` / `add_as("<hook>" ...)`
#                  (the helper of ak/runtime/backend_defaults.hpp) or the C table's
#                  `register_tuning_default(...)`; a header that defines the helper is fine;
#   tuning-object  an object of a tuning type with static or constant storage (`constexpr`,
#                  `constinit`, `static`, `inline`, `thread_local`: it freezes a value,
#                  even one looked up once), a tuning type built from a positional VALUE
#                  (`reduce_tuning{256, 8}`), or a static `scoped_tuning`;
#   named-constant a constexpr or const constant whose name holds a tuning field's name
#                  (`inline constexpr std::int64_t default_cpu_grain = 65536;`);
#   macro          a `#define` whose name holds a tuning field's name (any case) with a VALUE;
#   json           an override in a string (`"cpu_grain": 4096`) or a header that sets
#                  `AK_TUNING` (setenv/putenv);
#   specialisation an explicit specialisation of a template whose name holds "tuning" (a tuning
#                  by type, baked into every TU that sees it).
# Known limits: a value given positionally through a braced list that converts to a tuning type
# at a call (`f(dev, {256, 4})`) and a value in a name unrelated to any field (`#define BLOCK 256`)
# are not seen; review catches those. Matches that are not tuning values are listed in `allowed`
# below, each with its reason.
#
# Controls, so that the check provably can fail: the same scan over the backends' defaults sources
# (src/backends/*/*_tuning_defaults.cpp; cpu's and sim's must exist) must find values in each, and
# a snippet with one offence per rule (plus lines that must pass) must draw exactly those rules.
#
# usage: installed_headers_check.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX
set -euo pipefail
if (($# != 4)); then
  echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR CXX" >&2
  exit 2
fi
build=$1
src=$2
work=$3
cxx=$4
# The comment stripper: CXX if it is GCC-like (clang has no -fpreprocessed), else g++.
stripper=$cxx
if ! "$stripper" -fpreprocessed -dD -E -x c++ - </dev/null >/dev/null 2>&1; then
  if command -v g++ >/dev/null && g++ -fpreprocessed -dD -E -x c++ - </dev/null >/dev/null 2>&1
  then
    echo "note: $cxx has no -fpreprocessed; g++ strips the comments"
    stripper=g++
  else
    echo "SKIP: neither $cxx nor g++ can strip comments without preprocessing (-fpreprocessed)"
    exit 77
  fi
fi
rm -rf "$work"
mkdir -p "$work/stripped"
if ! cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
  echo "FAIL: 'cmake --install $build' did not complete; build the project first (it only copies"
  echo "what the build made). Its last lines:"
  tail -5 "$work/install.log"
  exit 1
fi
include=$work/prefix/include
hooks=$include/ak/runtime/hooks.hpp
[[ -f "$hooks" ]] || { echo "FAIL: $hooks was not installed"; exit 1; }

# Matches that are not tuning values: "FILE-SUFFIX RULE REGEX" (the regex is matched against the
# report), then the reason on the next line, indented.
allowed=$(cat <<'EOF'
ak/gpu/dims.hpp field-value \] \.items_per_thread = 1 \|
  the kernel handles one output line per work-item by construction, whatever the tuning
ak/gpu/search.hpp field-value \] \.items_per_thread = 1 \|
  the kernel handles one query per work-item by construction, whatever the tuning
ak/gpu/segmented_sort.hpp field-value \] \.items_per_thread = 1 \|
  each work-item sorts one window or merges ipt outputs by construction; ipt is the sort tuning's
ak/algorithms/merge.hpp field-value \] \.items_per_thread = 1 \|
  each work-item merges one chunk of outputs by construction; items_per_thread is the chunk
ak/runtime/device.hpp field-default \] std::int64_t sub_group_width = 0 \|
  a fact of the device in device_info (0: none known), a capability, not a tuning
ak/runtime/backend_defaults.hpp register = host_->register_tuning_default\(host_->context, &e\);$
  the definition of the helper, which passes on the values its caller gives
EOF
)

# The scanner. Arguments: a file of "name<TAB>stripped text" lines for the headers that declare
# the vocabulary, then one for the files to scan. Prints "# fields ..." and "# types ..." lines,
# then one "FILE:LINE: [rule] WHAT | LINE'S TEXT" line per offence.
cat >"$work/scan.pl" <<'PERL'
use strict;
use warnings;

sub read_list {
  my ($list) = @_;
  open(my $fh, '<', $list) or die "cannot read $list: $!";
  my @files;
  while (my $entry = <$fh>) {
    chomp $entry;
    my ($name, $path) = split /\t/, $entry, 2;
    open(my $in, '<', $path) or die "cannot read $path: $!";
    # Undo the compiler's line markers: keep the text, and each line's number in the file itself.
    my (@lines, @numbers);
    my $n = 1;
    while (my $line = <$in>) {
      chomp $line;
      if ($line =~ /^# (\d+) "/) { $n = $1; next; }
      push @lines, $line;
      push @numbers, $n++;
    }
    push @files, { name => $name, text => join("\n", @lines), numbers => \@numbers };
  }
  return @files;
}

# The line (in the file itself) where offset $pos of the joined text lies.
sub line_at {
  my ($file, $pos) = @_;
  my $index = () = substr($file->{text}, 0, $pos) =~ /\n/g;
  return $file->{numbers}[$index];
}

my @schema = read_list($ARGV[0]);
my @targets = read_list($ARGV[1]);

# The vocabulary: tuning types, their fields and their enumerations, from the declaring headers.
my (%types, %fields, %enums, @struct_offences);
sub parse_tuning_structs {
  my ($file, $record) = @_;
  my $text = $file->{text};
  while ($text =~ /\bstruct\s+(\w+)\s*(?::[^{;]*)?(\{(?:[^{}]++|(?2))*\})/g) {
    my ($type, $body, $body_end) = ($1, $2, pos($text));
    # A tuning type is what ak::tuning_type accepts: a struct that names itself in `type_name`.
    next unless $body =~ /\bstatic\s+constexpr\s+(?:std::)?string_view\s+type_name\b/;
    my $body_start = $body_end - length($body) + 1;
    $types{$type} = 1;
    my $offset = $body_start;
    for my $decl (split /;/, substr($body, 1, length($body) - 2)) {
      my $at = $offset;
      $offset += length($decl) + 1;
      (my $d = $decl) =~ s/^\s+|\s+$//g;
      $at += length($1) if $decl =~ /^(\s*)/;
      next if $d eq '' || $d =~ /^(static|using|typedef|friend|template|static_assert)\b/;
      next if $d =~ /^[^=\{]*\(/;  # a member function
      if ($d =~ /^((?:[\w:]+\s+)+?)(\w+)\s*(?:=\s*(.+)|\{(.*)\})?$/s) {
        my ($t, $name, $init) = ($1, $2, defined $3 ? $3 : $4);
        $t =~ s/\s+$//;
        $fields{$name} = 1;
        if ($t !~ /int\d+_t$/ && $t =~ /(?:^|::)(\w+)$/) { $enums{$1} = 1; }
        next unless $record;
        if (!defined $init) {
          push @struct_offences,
               [$file, $at, $at, 'struct-default', "$d (no default: T{} makes it 0)"];
        } elsif ($init !~ /^\s*(?:(?:ak)?::)?(?:unset|AK_TUNING_UNSET|(?:\w+::)*\w+::not_set)\s*$/)
        {
          push @struct_offences, [$file, $at, $at, 'struct-default', $d];
        }
      } elsif ($record) {
        push @struct_offences, [$file, $at, $at, 'struct-default', "$d (not one plain field)"];
      }
    }
  }
}
# Fields declared by list, as ak/runtime/hooks.hpp declares them: `#define AK_<HOOK>_TUNING_FIELDS(F)`
# with one `F(type, name, ...)` per field. The list is expanded with a member macro (in a tuning
# type's body, in an algorithm value's), and each declaration a member macro makes must default to
# the unset sentinel, as a struct's own members must (struct-default).
my %macros;  # a function-like macro's name => [file, offset, replacement]
sub parse_field_lists {
  my ($file) = @_;
  my $text = $file->{text};
  while ($text =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)/mg) {
    my ($name, $params, $body) = ($1, $2, $3);
    $macros{$name} = [$file, $-[0], $body];
    next unless $name =~ /^AK_\w+_TUNING_FIELDS$/ && $params =~ /^\s*(\w+)\s*$/;
    my $f = $1;
    while ($body =~ /\b$f\(\s*([\w:]+)\s*,\s*(\w+)\s*,/g) {
      my ($t, $n) = ($1, $2);
      $fields{$n} = 1;
      if ($t !~ /int\d+_t$/ && $t =~ /(?:^|::)(\w+)$/) { $enums{$1} = 1; }
    }
  }
}
sub check_member_macros {
  my ($file) = @_;
  my %done;
  while ($file->{text} =~ /\bAK_\w+_TUNING_FIELDS\(\s*(\w+)\s*\)/g) {
    my $name = $1;
    my $m = $macros{$name};
    next unless $m && !$done{$name}++;
    my ($mfile, $at, $body) = @$m;
    while ($body =~ /\b([\w:]+)\s+(\w+)\s*(\{[^{}]*\}|=[^;]*)\s*;/g) {
      my ($d, $init) = ("$1 $2$3", $3);
      next if $init =~ /^\s*(?:=\s*)?\{?\s*(?:::)?(?:ak::)?(?:unset|AK_TUNING_UNSET)\s*\}?\s*$/;
      push @struct_offences, [$mfile, $at, $at, 'struct-default', "$d (in member macro $name)"];
    }
  }
}
parse_field_lists($_) for @schema, @targets;
parse_tuning_structs($_, 0) for @schema;
parse_tuning_structs($_, 1) for @targets;
check_member_macros($_) for @targets;
my @fields = sort keys %fields;
my @types = sort keys %types;
my @enums = sort keys %enums;
print "# fields ", scalar(@fields), " @fields\n# types ", scalar(@types), " @types\n";
print "# enums ", scalar(@enums), " @enums\n";
exit 0 unless @fields && @types;

my $F = join '|', @fields;
my $T = join '|', @types;
my $E = @enums ? join('|', @enums) : 'no_enum_here';
my $FU = join '|', map { uc } @fields;
my $value = qr/[-+~(\s]*(?:\d|(?:std::)?u?int\d+_t\s*[({]\s*[-+]?\d
                          |static_cast\s*<[^<>]*>\s*\(\s*[-+]?\d
                          |(?:\w+::)*(?:$E)::(?!not_set\b)\w)/x;
my $rest = qr/(?:[^,;{}()\n]|\([^()\n]*\))*/;  # the rest of a value's expression, for the report
my $assign = qr/(?:(?:[-+*\/%|&^]|<<|>>)?=(?!=)\s*\{?|\{)/;  # = += ... {, not ==
my $init = qr/(?:=(?!=)|\{)/;
my $storage = qr/\b(?:constexpr|constinit|static|inline|thread_local)\b[^;(){}=]*/;
my @rules = (
  ['field-value', qr/(?:\.|->)\s*(?:$F)\b\s*$assign$value$rest/],
  ['field-default', qr/(?:^|[;{}(,])\s*(?:const\s+)?(?:[\w:]+\s+)+(?:$F)\s*$init$value$rest/m],
  ['register', qr/\badd\s*\(\s*(?:\w+::)*\w+_hook\s*[{(]|\badd_as\s*\(\s*"/],
  ['register', qr/\bregister_tuning_default\s*\(/],
  ['tuning-object', qr/$storage\b(?:$T)\s*[&*]?\s*\w+\s*(?:=|\{|\[|;)/],
  ['tuning-object', qr/\b(?:$T)\s*(?:\w+\s*)?(?:=\s*)?[({]$value$rest/],
  ['tuning-object', qr/\b(?:static|inline|thread_local)\b[^;(){}=]*\bscoped_tuning\s+\w+/],
  ['named-constant', qr/\b(?:constexpr|const)\b[^;(){}=]*\b\w*(?:$F)\w*\s*$init$value$rest/],
  ['macro', qr/^[ \t]*#[ \t]*define[ \t]+\w*(?i:$FU)\w*[ \t]+$value$rest/m],
  ['json', qr/\\?"(?:$F)\\?"\s*:\s*(?:-?\d|\\?")/],
  ['json', qr/\b(?:setenv|putenv)\s*\([^;]*AK_TUNING/],
  ['specialisation', qr/\btemplate\s*<\s*>\s*[^;{]*\w*tuning\w*/],
);

my %seen;
# Prints "FILE:LINE: [rule] WHAT | LINE'S TEXT"; WHAT is the matched text unless given.
sub report {
  my ($file, $pos, $end, $rule, $what) = @_;
  # From the first character of the offence itself, past what a rule matches before it.
  $pos++ while $pos < $end && substr($file->{text}, $pos, 1) =~ /[\s;{}(,]/;
  my $line = line_at($file, $pos);
  my $index = () = substr($file->{text}, 0, $pos) =~ /\n/g;
  my $text = (split /\n/, $file->{text}, -1)[$index];
  $what = substr($file->{text}, $pos, $end - $pos) unless defined $what;
  for ($text, $what) { s/\s+/ /g; s/^ | $//g; }
  return if $seen{"$file->{name}:$line:$rule:$what"}++;
  return if $rule eq 'field-default' && $seen{"$file->{name}:$line:struct-default"};
  $seen{"$file->{name}:$line:$rule"} = 1;
  print "$file->{name}:$line: [$rule] $what | $text\n";
}
report(@$_) for @struct_offences;
for my $file (@targets) {
  for my $rule (@rules) {
    my ($name, $re) = @$rule;
    while ($file->{text} =~ /$re/g) {
      report($file, $-[0], $+[0], $name);
    }
  }
}
PERL

# Strips one file's comments into $work/stripped and prints "name<TAB>stripped path".
strip() {
  local name=$1 file=$2 out
  out=$work/stripped/$(tr '/' '_' <<<"$name")
  if ! "$stripper" -std=c++20 -fpreprocessed -dD -E -x c++ "$file" >"$out" 2>"$out.err"; then
    echo "FAIL: $stripper could not strip the comments of $file:" >&2
    head -5 "$out.err" >&2
    return 1
  fi
  printf '%s\t%s\n' "$name" "$out"
}

# Whether a hit is in `allowed`; if so, notes it with its reason in $work/allowed_hits.
is_allowed() {
  local hit=$1 entry suffix rule regex reason
  while IFS= read -r entry && IFS= read -r reason; do
    read -r suffix rule regex <<<"$entry"
    if [[ "${hit%%:*}" == *"$suffix" && "$hit" == *"[$rule]"* ]] && grep -qP -- "$regex" <<<"$hit"
    then
      printf '  %s\n    (%s)\n' "$hit" "${reason#"${reason%%[! ]*}"}" >>"$work/allowed_hits"
      return 0
    fi
  done <<<"$allowed"
  return 1
}

# Scans the files of list $2 with the vocabulary of list $1; prints the offences not allowed.
scan() {
  local out
  out=$(perl "$work/scan.pl" "$1" "$2") || { echo "FAIL: the scanner failed" >&2; return 1; }
  grep '^# ' <<<"$out" >"$work/vocabulary"
  grep -v '^# ' <<<"$out" | while IFS= read -r hit; do
    [[ -n "$hit" ]] && { is_allowed "$hit" || echo "$hit"; }
  done
  return 0
}

(cd "$include" && find ak -type f | sort) >"$work/names"
while IFS= read -r name; do
  strip "$name" "$include/$name"
done <"$work/names" >"$work/headers.list"
grep -P '^ak/runtime/hooks\.hpp\t' "$work/headers.list" >"$work/schema.list"

found=$(scan "$work/schema.list" "$work/headers.list")
nfields=$(awk '$2 == "fields" { print $3 }' "$work/vocabulary")
ntypes=$(awk '$2 == "types" { print $3 }' "$work/vocabulary")
if ((nfields < 5 || ntypes < 5)); then
  echo "FAIL: found only $nfields tuning fields in $ntypes tuning types in $hooks; the check cannot"
  echo "see them"
  exit 1
fi
echo "scanning $(wc -l <"$work/names") installed headers for values of $nfields fields of $ntypes" \
     "tuning types:"
sed 's/^# /  /' "$work/vocabulary"
if [[ -s "$work/allowed_hits" ]]; then
  echo "allowed, not tuning values:"
  cat "$work/allowed_hits"
fi
status=0
if [[ -n "$found" ]]; then
  echo "FAIL: installed headers hold tuning values:"
  echo "$found"
  status=1
fi

# Control 1: every backend's defaults source holds values the scan must find.
shopt -s nullglob
sources=("$src"/src/backends/*/*_tuning_defaults.cpp)
for need in cpu/cpu sim/sim; do
  [[ -f "$src/src/backends/${need}_tuning_defaults.cpp" ]] ||
    { echo "FAIL: $src/src/backends/${need}_tuning_defaults.cpp is missing"; exit 1; }
done
for f in "${sources[@]}"; do
  strip "${f#"$src"/}" "$f" >"$work/control.list"
  control=$(scan "$work/schema.list" "$work/control.list")
  if ! grep -q '\[register\]' <<<"$control" || ! grep -q '\[field-value\]' <<<"$control"; then
    echo "FAIL: the scan finds no registered value in ${f#"$src"/}; the check cannot see them"
    status=1
  else
    echo "control: ${f#"$src"/}: $(grep -c '\[field-value\]' <<<"$control") values in" \
         "$(grep -c '\[register\]' <<<"$control") registrations, e.g."
    grep -m1 '\[field-value\]' <<<"$control" | sed 's/^/  /'
  fi
done

# Control 2: one offence per rule (marked with the rule it must draw), and lines that must pass.
cat >"$work/rules.hpp" <<'CXX'
#pragma once
/* A comment over lines
   that the compiler drops: the line markers keep the lines below where they are.
   .cpu_grain = 4096 in a comment is no value.



*/
#define AK_DEFAULT_CPU_GRAIN 65536                                     // expect macro
namespace ak {
struct map_tuning {
  static constexpr std::string_view type_name = "ak::map_tuning";
  std::int64_t block_size = unset;
  std::int64_t items_per_thread = 4;                                   // expect struct-default
  std::int64_t cpu_grain;                                              // expect struct-default
};
struct radix_sort_like { std::int64_t radix_digit_bits = 11; };        // expect field-default
inline constexpr std::int64_t default_merge_tile_size = 2048;          // expect named-constant
inline constexpr sort_tuning frozen{};                                 // expect tuning-object
inline void user(device d) {
  sort(v, {.tuning = {.cpu_grain = 1 << 12}});                         // expect field-value
  auto t = tuning(scan_hook{}, d, dtype::float32,
                  {.algorithm = ak::scan_algorithm::decoupled_lookback});  // expect field-value
  t.block_size = std::int64_t{512};                                    // expect field-value
  d_.add(ak::reduce_hook{}, "*", "*", {});                             // expect register
  d_.add_as("scan", scan_tuning{}, "sm_90", "*");                      // expect register
  reduce_tuning positional{256, 8};                                    // expect tuning-object
  const char* j = R"({"cpu": {"reduce": {"*": {"cpu_tasks": 2}}}})";  // expect json
  setenv("AK_TUNING", "{}", 1);                                        // expect json
}
template <> struct default_tuning<float> {};                           // expect specialisation
#define AK_DEMO_TUNING_FIELDS(F) F(std::int64_t, demo_width, (), "a field declared by list")
#define AK_DEMO_MEMBER(type, name, carried_by, doc) type name{8};        // expect struct-default
struct demo_tuning {
  static constexpr std::string_view type_name = "ak::demo_tuning";
  AK_DEMO_TUNING_FIELDS(AK_DEMO_MEMBER)
};
inline void set_demo(demo_tuning& t) { t.demo_width = 3; }             // expect field-value
inline void fine(device d, const sort_tuning& call = {}) {
  const auto t = tuning(sort_hook{}, d, dtype::float32, call);
  foreachindex(d, n, body, {.block_size = t.block_size, .cpu_grain = unset});
  if (t.algorithm == sort_algorithm::radix || t.block_size <= 256) return;
  map_tuning m{.items_per_thread = t.items_per_thread};
  struct other { std::int64_t blocks = 4; } o;
  s.algorithm = sort_algorithm::not_set;
}
}  // namespace ak
CXX
strip "rules.hpp" "$work/rules.hpp" >"$work/rules.list"
(cd "$work" && cat schema.list rules.list) >"$work/rules_schema.list"
# The vocabulary of hooks.hpp plus the snippet's own map_tuning (whose members must be seen).
got=$(scan "$work/rules_schema.list" "$work/rules.list" |
      sed -E 's/^rules\.hpp:([0-9]+): \[([a-z-]+)\].*/\1 \2/' | sort -u)
want=$(grep -n '// expect ' "$work/rules.hpp" | sed -E 's/^([0-9]+):.*expect ([a-z-]+).*/\1 \2/' |
       sort -u)
if [[ "$got" != "$want" ]]; then
  echo "FAIL: the rules do not see what they should in $work/rules.hpp (line rule):"
  diff <(echo "$want") <(echo "$got") | sed -n 's/^</  missed:/p; s/^>/  extra: /p'
  status=1
else
  echo "control: each of the $(cut -d' ' -f2 <<<"$want" | sort -u | wc -l) rules draws its" \
       "own example and nothing else ($(wc -l <<<"$want") lines)"
fi
((status == 0)) || exit 1
echo "OK: no installed header holds a tuning value"
