#!/usr/bin/perl
# doc-examples.pl: the commands of README.md and of the man pages' EXAMPLES
# sections, for tests/0810-doc-examples.t to run.
#
#   doc-examples.pl extract DOC OUTDIR   one unit per command into OUTDIR
#   doc-examples.pl subst MAP FILE       FILE with the documented ids as mapped
#   doc-examples.pl compare MAP EXPECT ACTUAL
#                                        EXPECT and ACTUAL the same once ids
#                                        and durations are set aside; learns
#                                        new ids into MAP
#
# A man page is read as mandoc(1) renders it for a terminal, so the
# commands are what a reader sees, escapes resolved; its displays are the
# indented blocks of the EXAMPLES section.  In README.md the fenced
# blocks are read, but not those marked as another language (```json);
# each is placed by its line and its section ("line 68 (A five-minute tour)").
#
# A block whose lines start with "$ " is a session: each "$ " line is a
# command, continued while it ends in "\", "|", "&&" or "||" or a here
# document is open, and the lines up to the next "$ " are its output.  A
# block without prompts is a script, each command a unit without output.
# A block that starts with "{" is data, and a line of five cron fields and
# a command is a crontab entry.  Each unit is NNN.cmd (the command), NNN.out
# (its output, when shown), NNN.kind (sh, crontab) and NNN.where.
use strict;
use warnings;

sub slurp { local $/; open my $f, '<', $_[0] or die "$_[0]: $!\n"; my $s = <$f>; close $f; $s }
sub spew { open my $f, '>', $_[0] or die "$_[0]: $!\n"; print $f $_[1]; close $f }

# Blocks of DOC: [first line number or example number, lines].
sub blocks {
	my ($doc) = @_;
	my @blocks;
	if ($doc =~ /\.md$/) {
		my @lines = split /\n/, slurp($doc), -1;
		my ($in, $skip, $start, $indent, $section, @cur) = (0, 0, 0, 0, '');
		for my $i (0 .. $#lines) {
			my $l = $lines[$i];
			$section = $1 if !$in && $l =~ /^## (.*)/;
			if ($l =~ /^(\s*)```(\S*)\s*$/) {
				if ($in) {
					push @blocks, ["line " . ($start + 1) . " ($section)", [@cur]] unless $skip;
					($in, @cur) = (0);
				} else {
					($in, $skip, $start, $indent, @cur) = (1, ($2 ne '' && $2 ne 'sh'), $i + 1,
					    length $1);
				}
				next;
			}
			if ($in) {
				$l =~ s/^ {0,$indent}//;
				push @cur, $l;
			}
		}
		return @blocks;
	}
	# Rendered for a terminal too wide to wrap a line: a section's text is
	# indented 5, a display 6 more, and it ends where that text resumes.
	open my $m, '-|', 'mandoc', '-Tascii', '-O', 'width=1000', $doc or die "mandoc: $!\n";
	my ($sec, $n, $base, @cur) = ('', 0, 5);
	while (my $l = <$m>) {
		chomp $l;
		$l =~ s/.\x08//g;
		if ($l =~ /^(\S.*)/) { $sec = $1; next }
		next unless $sec eq 'EXAMPLES';
		$l =~ /^( *)/;
		my $ind = length $1;
		if ((@cur && $ind >= $base + 6) || $ind == $base + 6) {
			push @cur, $l;
			next;
		}
		if (@cur) {
			s/^ {@{[$base + 6]}}// for @cur;
			push @blocks, ["example " . ++$n, [@cur]];
			@cur = ();
		}
	}
	if (@cur) {
		s/^ {@{[$base + 6]}}// for @cur;
		push @blocks, ["example " . ++$n, [@cur]];
	}
	close $m or die "mandoc failed on $doc\n";
	return @blocks;
}

# Whether the command so far needs the next line.
sub open_command {
	my ($text) = @_;
	my @heredocs = $text =~ /<<-?\s*['"]?(\w+)['"]?/g;
	for my $d (@heredocs) {
		return 1 unless $text =~ /\n[ \t]*\Q$d\E[ \t]*(\n|$)/;
	}
	return $text =~ /(\\|\||&&)\s*$/;
}

sub units {
	my ($lines) = @_;
	my @l = @$lines;
	pop @l while @l && $l[-1] =~ /^\s*$/;
	return () unless @l;
	return () if $l[0] =~ /^\s*[{\[]/;
	my $session = grep { /^\$ / } @l;
	my @units;
	my $i = 0;
	while ($i < @l) {
		my $line = $l[$i];
		if ($session && $line !~ /^\$ /) { $i++; next }
		if (!$session && ($line =~ /^\s*$/ || $line =~ /^\s*#/)) { $i++; next }
		$line =~ s/^\$ //;
		my $cmd = $line;
		while (open_command($cmd) && $i + 1 < @l) {
			$cmd .= "\n" . $l[++$i];
		}
		$i++;
		my $out;
		if ($session) {
			my @o;
			push @o, $l[$i++] while $i < @l && $l[$i] !~ /^\$ /;
			pop @o while @o && $o[-1] =~ /^\s*$/;
			$out = join('', map { "$_\n" } @o) if @o;
		}
		my $kind = $cmd =~ /^(?:[-0-9*\/,a-z]+\s+){5}\S/ && $cmd !~ /^[a-z]/ ? 'crontab' : 'sh';
		push @units, [$kind, $cmd, $out];
	}
	return @units;
}

sub extract {
	my ($doc, $dir) = @_;
	mkdir $dir;
	my $n = 0;
	(my $name = $doc) =~ s{.*/}{};
	$name =~ s/^(.*)\.(\d)$/$1($2)/;
	for my $b (blocks($doc)) {
		for my $u (units($b->[1])) {
			my $f = sprintf "%s/%03d", $dir, ++$n;
			spew("$f.kind", "$u->[0]\n");
			spew("$f.cmd", "$u->[1]\n");
			spew("$f.out", $u->[2]) if defined $u->[2];
			spew("$f.where", "$name, $b->[0]\n");
		}
	}
	print "$n\n";
}

# The map of documented ids (full, and 8-digit short ones) to actual ones.
sub load_map {
	my %m;
	if (-e $_[0]) {
		for (split /\n/, slurp($_[0])) { my ($k, $v) = split / /; $m{$k} = $v }
	}
	return \%m;
}

sub save_map {
	my ($file, $m) = @_;
	spew($file, join('', map { "$_ $m->{$_}\n" } sort keys %$m));
}

my $ID = qr/(?<![0-9a-zA-Z-])([0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?)(?![0-9a-zA-Z])/;

# A prefix of 4 or more digits of a documented id, as the same prefix of
# the actual one.
sub subst {
	my ($m, $text) = @_;
	$text =~ s{(?<![0-9a-zA-Z])([0-9a-f]{4,36})(?![0-9a-zA-Z])}{
		my $p = $1;
		my ($k) = grep { length($_) >= length($p) && substr($_, 0, length $p) eq $p } sort keys %$m;
		$k ? substr($m->{$k}, 0, length $p) : $p
	}ge;
	return $text;
}

# What varies from run to run, set aside on both sides.
sub steady {
	my ($s) = @_;
	$s =~ s/("duration_ms":)\d+/${1}N/g;
	$s =~ s/\b\d+ms\b/Nms/g;
	$s =~ s/\b\d+\.\ds\b/N.Ns/g;
	return $s;
}

sub compare {
	my ($mapf, $expf, $actf) = @_;
	my $m = load_map($mapf);
	my ($exp, $act) = (slurp($expf), slurp($actf));
	my @e = $exp =~ /$ID/g;
	my @a = $act =~ /$ID/g;
	for my $i (0 .. ($#e < $#a ? $#e : $#a)) {
		next if exists $m->{$e[$i]} || length $e[$i] != length $a[$i];
		$m->{$e[$i]} = $a[$i];
		$m->{substr $e[$i], 0, 8} = substr $a[$i], 0, 8 if length $e[$i] == 36;
	}
	save_map($mapf, $m);
	$exp =~ s/$ID/exists $m->{$1} ? $m->{$1} : $1/ge;
	spew("$expf.mapped", steady($exp));
	spew("$actf.steady", steady($act));
	exec 'diff', '-u', "$expf.mapped", "$actf.steady";
}

my $what = shift // '';
if ($what eq 'extract') { extract(@ARGV) }
elsif ($what eq 'subst') { print subst(load_map($ARGV[0]), slurp($ARGV[1])) }
elsif ($what eq 'compare') { compare(@ARGV) }
else { die "usage: doc-examples.pl extract|subst|compare ...\n" }
