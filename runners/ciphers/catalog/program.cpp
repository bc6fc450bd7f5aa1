#include "ciphers/catalog/program.h"

#include <algorithm>

#include "ciphers/reference/field_linalg.h"
#include "engine/errors.h"

namespace cb {
namespace {

// An operation of the flat sequence with the names it may be timed under.
struct Item {
  Op op;
  std::string apart, name;  // the label apart (group or name), and the step's own name
};

// y = A x over GF(2) for the n x n bit matrix with rows A[r] (bit i of A[r] = A[r][i]).
uint64_t bit_apply(const std::vector<uint64_t>& A, uint64_t x) {
  uint64_t y = 0;
  for (size_t r = 0; r < A.size(); ++r) y |= uint64_t(__builtin_parityll(A[r] & x)) << r;
  return y;
}

// The inverse of a bit matrix by Gauss-Jordan; empty when singular.
std::vector<uint64_t> bit_inverse(std::vector<uint64_t> A) {
  const size_t n = A.size();
  std::vector<uint64_t> I(n);
  for (size_t r = 0; r < n; ++r) I[r] = uint64_t(1) << r;
  for (size_t c = 0; c < n; ++c) {
    size_t p = c;
    while (p < n && !((A[p] >> c) & 1)) ++p;
    if (p == n) return {};
    std::swap(A[p], A[c]), std::swap(I[p], I[c]);
    for (size_t r = 0; r < n; ++r)
      if (r != c && ((A[r] >> c) & 1)) A[r] ^= A[c], I[r] ^= I[c];
  }
  return I;
}

uint64_t linear_part(const GF2n& F, const Linearized& L, uint64_t x) {
  Linearized L0 = L;
  L0.c = 0;
  return evaluate(F, L0, x);
}

Elements apply_map(const CipherField& F, const BlockMap& M, const Elements& x) {
  Elements y(x.size(), 0);
  for (const auto& t : M) y.at(t.out) = F.add(y.at(t.out), F.mul(t.coeff, x.at(t.in)));
  return y;
}

bool same(const BlockMap& a, const BlockMap& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].out != b[i].out || a[i].in != b[i].in || a[i].coeff != b[i].coeff) return false;
  return true;
}

// The power map program and inverse exponent of the field's kind.
PowerProgram power_program(const CipherField& F, uint64_t e) {
  return F.is_prime() ? compile_power_prime(e, F.p()) : compile_power(e, F.n());
}
std::optional<uint64_t> power_inverse(const CipherField& F, uint64_t e) {
  return F.is_prime() ? inverse_exponent_prime(e, F.p()) : inverse_exponent(e, F.n());
}

// Why Power(e) has no cheap inverse in the field, or "".
std::string power_refusal(const CipherField& F, uint64_t e) {
  const auto inv = power_inverse(F, e);
  const std::string q1 = F.is_prime() ? "p - 1" : "2^n - 1";
  if (!inv) return msg("x^", e, " is not a permutation of ", F.name(), " (gcd(e, ", q1, ") > 1)");
  const PowerProgram f = power_program(F, e), b = power_program(F, *inv);
  if (b.depth > f.depth)
    return msg("the inverse of x^", e, " in ", F.name(), " is x^", *inv, ", ", b.products(), " products at depth ",
               b.depth, " against ", f.products(), " at depth ", f.depth);
  return "";
}

std::vector<std::vector<Item>> declared_rounds(const CipherInstance& inst, long R, bool decrypt, bool bits) {
  std::vector<std::vector<Item>> rounds;
  for (long r = 1; r <= R; ++r) {
    std::vector<Item> items;
    for (const Step& st : bits ? inst.bit_round(r, R) : inst.round(r, R)) {
      const std::string name = decrypt && !st.inverse_name.empty() ? st.inverse_name : st.name;
      for (const Op& op : st.ops) items.push_back({op, st.group.empty() ? name : st.group, name});
    }
    rounds.push_back(std::move(items));
  }
  return rounds;
}

}  // namespace

Linearized inverse_affine(const CipherField& CF, const Linearized& L) {
  if (CF.is_prime()) {  // y = a x + c: x = a^-1 (y - c)
    if (L.gamma.size() != 1 || L.gamma[0] == 0)
      throw ParameterError(msg("affine map over ", CF.name(), ": ",
                               L.gamma.size() != 1 ? msg(L.gamma.size(), " coefficients (F_p takes a x + c: one)")
                                                   : std::string("a = 0 is singular, not a permutation")));
    const uint64_t ai = CF.inv(L.gamma[0]);
    Linearized out;
    out.gamma = {ai};
    out.c = CF.neg(CF.mul(ai, L.c));
    return out;
  }
  const GF2n& F = CF.binary();
  const long n = F.n();
  std::vector<uint64_t> A(n, 0);  // A[r] bit i = bit r of L_0(x^i)
  for (long i = 0; i < n; ++i) {
    const uint64_t col = linear_part(F, L, uint64_t(1) << i);
    for (long r = 0; r < n; ++r)
      if ((col >> r) & 1) A[r] |= uint64_t(1) << i;
  }
  const auto Ai = bit_inverse(A);
  if (Ai.empty()) throw ParameterError(msg("affine map over GF(2^", n, "): its linear part is singular, not a permutation"));
  Linearized out;
  out.gamma = linearized_coefficients(F, [&](uint64_t y) { return bit_apply(Ai, y); });
  out.c = bit_apply(Ai, L.c);
  return out;
}

BlockMap inverse_map(const CipherField& F, const BlockMap& M, long s) {
  std::vector<uint64_t> A(s * s, 0);
  for (const auto& t : M) A.at(t.out * s + t.in) = F.add(A.at(t.out * s + t.in), t.coeff);
  // ParameterError when singular
  const auto Ai = F.is_prime() ? mat_inverse(F.prime(), A) : mat_inverse(F.binary(), A);
  BlockMap out;
  for (long p = 0; p < s; ++p)
    for (long q = 0; q < s; ++q)
      if (Ai[p * s + q]) out.push_back({p, q, Ai[p * s + q]});
  return out;
}

std::string decrypt_refusal(const CipherInstance& inst) {
  const auto& sp = inst.spec();
  std::vector<uint64_t> seen;
  for (long r = 1; r <= sp.rounds; ++r)
    for (const Step& st : inst.round(r, sp.rounds))
      for (const Op& op : st.ops) {
        if (op.kind != Op::kPower || std::count(seen.begin(), seen.end(), op.e)) continue;
        seen.push_back(op.e);
        const std::string why = power_refusal(inst.element_field(), op.e);
        if (!why.empty()) return msg("step ", st.name, ": ", why);
      }
  return "";
}

CompiledProgram compile_program(const CipherInstance& inst, long R, bool decrypt, bool fused, bool bits) {
  const auto& sp = inst.spec();
  const CipherField& F = inst.element_field();
  if (R < 1 || R > sp.rounds) throw ParameterError(msg(sp.id, " rounds=", R, ": must be 1..", sp.rounds));
  if (bits && F.is_prime())
    throw ParameterError(msg(sp.id, " is over ", F.name(), ": its elements have no bits to slice (the bit-sliced ",
                             "packing runs GF(2^n) instances)"));
  if (bits && fused)
    throw ParameterError(msg(sp.id, " bit-sliced: --linear fused has nothing to fuse (on the bits, affine maps and "
                             "linear layers are both additions): use --linear separate"));
  if (decrypt && !bits) {
    const std::string why = decrypt_refusal(inst);
    if (!why.empty()) throw ParameterError(msg(sp.id, ": no cheap inverse for --decrypt: ", why));
  }
  auto rounds = declared_rounds(inst, R, decrypt, bits);
  if (decrypt) {
    std::reverse(rounds.begin(), rounds.end());
    for (auto& items : rounds) {
      std::reverse(items.begin(), items.end());
      for (auto& it : items) {
        Op& op = it.op;
        if (op.kind == Op::kLinear) op.M = inverse_map(F, op.M, sp.s);
        if (op.kind == Op::kAffine) op.L = inverse_affine(F, op.L);
        if (op.kind == Op::kPower && !bits) op.e = *power_inverse(F, op.e);
        if (op.kind == Op::kBoolean) {
          if (!op.inverse)
            throw ParameterError(msg(sp.id, ": no inverse for --decrypt: step ", it.name, " is the Boolean circuit ",
                                     op.circuit ? op.circuit->name : "?", ", which declares no inverse circuit"));
          std::swap(op.circuit, op.inverse);
        }
      }
    }
  }
  // The flat sequence in execution order.
  struct Flat {
    CompiledOp op;
    BlockMap M;  // kLinear, kFused
    std::string apart, name;
    long round;
  };
  std::vector<Flat> flat;
  long subkeys = 0;
  for (size_t r = 0; r < rounds.size(); ++r)
    for (auto& it : rounds[r]) {
      Flat f{CompiledOp{}, {}, it.apart, it.name, long(r)};
      CompiledOp& c = f.op;
      switch (it.op.kind) {
        case Op::kPower:
          if (bits)
            throw ParameterError(msg(sp.id, " bit-sliced: step ", it.name, " is the power map x^", it.op.e,
                                     ", which has no Boolean form: the entry's bit_round must give its circuit"));
          c.kind = CompiledOp::kPower, c.power = power_program(F, it.op.e), c.shift = c.power.shift;
          break;
        case Op::kBoolean:
          if (!bits)
            throw ParameterError(msg(sp.id, ": step ", it.name,
                                     " is a Boolean circuit on the elements' bits: only the bit-sliced packing "
                                     "evaluates it"));
          if (!it.op.circuit) throw ParameterError(msg(sp.id, ": step ", it.name, ": Boolean operation without a circuit"));
          it.op.circuit->check();
          if (const long k = it.op.circuit->inputs; k != long(it.op.circuit->outputs.size()) || k % sp.n ||
                                                    sp.s % (k / sp.n))
            throw ParameterError(msg(sp.id, ": step ", it.name, ": circuit ", it.op.circuit->name, " maps ", k,
                                     " bits to ", it.op.circuit->outputs.size(), ": it must map g elements of GF(2^",
                                     sp.n, ") to g, g n bits, g dividing the state's ", sp.s, " elements"));
          c.kind = CompiledOp::kBoolean, c.circuit = it.op.circuit;
          break;
        case Op::kAffine:
          if (long(it.op.L.gamma.size()) != sp.n)
            throw ParameterError(msg(sp.id, ": affine map with ", it.op.L.gamma.size(), " coefficients: ", F.name(),
                                     " needs ", sp.n));
          c.kind = CompiledOp::kAffine, c.L = it.op.L;
          break;
        case Op::kLinear:
          for (const auto& t : it.op.M)
            if (t.out < 0 || t.out >= sp.s || t.in < 0 || t.in >= sp.s)
              throw ParameterError(msg(sp.id, ": linear map term (", t.out, ", ", t.in, ") outside a state of ", sp.s));
          c.kind = CompiledOp::kLinear, f.M = it.op.M;
          break;
        case Op::kAddKey:
          if (it.op.key < 0) throw ParameterError(msg(sp.id, ": subkey index ", it.op.key, " is negative"));
          c.kind = CompiledOp::kAddKey, c.key = it.op.key, subkeys = std::max(subkeys, it.op.key + 1);
          break;
      }
      flat.push_back(std::move(f));
    }
  // Folding: a power map's trailing Frobenius into the affine map before it, else after it.
  for (size_t k = 0; k < flat.size(); ++k) {
    CompiledOp& c = flat[k].op;
    if (c.kind != CompiledOp::kPower || c.shift == 0) continue;
    if (k > 0 && flat[k - 1].op.kind == CompiledOp::kAffine) {
      flat[k - 1].op.L = postcompose_frobenius(F.binary(), flat[k - 1].op.L, c.shift);
      c.shift = 0;
    } else if (k + 1 < flat.size() && flat[k + 1].op.kind == CompiledOp::kAffine) {
      flat[k + 1].op.L = precompose_frobenius(flat[k + 1].op.L, c.shift);
      c.shift = 0;
    }
  }
  // Labels; fusion of an affine map with the linear layer next to it.
  CompiledProgram out;
  out.subkeys = subkeys;
  out.subtract_keys = decrypt && F.is_prime();
  out.rounds.resize(rounds.size());
  auto map_index = [&](const BlockMap& M) {
    for (size_t i = 0; i < out.maps.size(); ++i)
      if (same(out.maps[i], M)) return long(i);
    out.maps.push_back(M);
    return long(out.maps.size()) - 1;
  };
  for (size_t k = 0; k < flat.size(); ++k) {
    Flat& f = flat[k];
    CompiledOp c = f.op;
    if (c.kind == CompiledOp::kLinear) c.map = map_index(f.M);
    c.label = fused ? f.name : f.apart;
    if (fused && k + 1 < flat.size()) {
      Flat& g = flat[k + 1];
      const bool al = c.kind == CompiledOp::kAffine && g.op.kind == CompiledOp::kLinear;
      const bool la = c.kind == CompiledOp::kLinear && g.op.kind == CompiledOp::kAffine;
      if (al || la) {
        const Flat& aff = al ? f : g;
        const Flat& lin = al ? g : f;
        CompiledOp u;
        u.kind = CompiledOp::kFused, u.L = aff.op.L, u.map = map_index(lin.M), u.affine_first = al;
        u.label = aff.name == lin.name ? aff.name : aff.name + "+" + lin.name;
        out.rounds[f.round].push_back(std::move(u));
        ++k;
        continue;
      }
    }
    if (c.kind == CompiledOp::kPower && c.shift) {  // not folded: an explicit Frobenius map
      CompiledOp fr;
      fr.kind = CompiledOp::kFrobenius, fr.shift = c.shift, fr.label = c.label;
      c.shift = 0;
      out.rounds[f.round].push_back(std::move(c));
      out.rounds[f.round].push_back(std::move(fr));
      continue;
    }
    out.rounds[f.round].push_back(std::move(c));
  }
  return out;
}

std::string bits_refusal(const CipherInstance& inst, bool decrypt) {
  try {
    compile_program(inst, inst.spec().rounds, decrypt, false, true);
  } catch (const ParameterError& e) {
    return e.what();
  }
  return "";
}

std::string elements_refusal(const CipherInstance& inst) {
  for (long r = 1; r <= inst.spec().rounds; ++r)
    for (const Step& st : inst.round(r, inst.spec().rounds))
      for (const Op& op : st.ops)
        if (op.kind == Op::kBoolean)
          return msg("step ", st.name, " is a Boolean circuit on the elements' bits: only the bit-sliced packing "
                     "evaluates it");
  return "";
}

std::vector<std::string> step_names(const CipherInstance& inst, bool fused, bool decrypt, bool bits) {
  std::vector<std::string> names;
  const auto p = compile_program(inst, inst.spec().rounds, decrypt, fused, bits);
  for (const auto& r : p.rounds)
    for (const auto& c : r)
      if (std::find(names.begin(), names.end(), c.label) == names.end()) names.push_back(c.label);
  return names;
}

uint64_t evaluate_affine(const CipherField& F, const Linearized& L, uint64_t x) {
  if (!F.is_prime()) return evaluate(F.binary(), L, x);
  return F.add(F.mul(L.gamma.at(0), x), L.c);
}

Elements evaluate_clear(const CipherField& F, const CompiledProgram& p, const std::vector<Elements>& subkeys, Elements x) {
  if (long(subkeys.size()) < p.subkeys)
    throw ParameterError(msg("evaluate_clear: ", subkeys.size(), " subkeys given, the program adds ", p.subkeys));
  for (const auto& r : p.rounds)
    for (const auto& c : r) {
      switch (c.kind) {
        case CompiledOp::kPower:
          if (F.is_prime())
            for (auto& v : x) v = F.pow(v, c.power.e);
          else
            for (auto& v : x) v = F.binary().frob(F.pow(v, c.power.e >> c.power.shift), c.shift);
          break;
        case CompiledOp::kFrobenius:
          for (auto& v : x) v = F.binary().frob(v, c.shift);
          break;
        case CompiledOp::kAffine:
          for (auto& v : x) v = evaluate_affine(F, c.L, v);
          break;
        case CompiledOp::kLinear:
          x = apply_map(F, p.maps[c.map], x);
          break;
        case CompiledOp::kFused:
          if (c.affine_first) {
            for (auto& v : x) v = evaluate_affine(F, c.L, v);
            x = apply_map(F, p.maps[c.map], x);
          } else {
            x = apply_map(F, p.maps[c.map], x);
            for (auto& v : x) v = evaluate_affine(F, c.L, v);
          }
          break;
        case CompiledOp::kAddKey:
          for (size_t i = 0; i < x.size(); ++i)
            x[i] = p.subtract_keys ? F.sub(x[i], subkeys[c.key].at(i)) : F.add(x[i], subkeys[c.key].at(i));
          break;
        case CompiledOp::kBoolean: {  // on each group of g = inputs / n elements
          const long n = F.n(), g = c.circuit->inputs / n;
          const uint64_t mask = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
          for (size_t k = 0; k < x.size(); k += g) {
            uint64_t in = 0;
            for (long e = 0; e < g; ++e) in |= x[k + e] << (e * n);
            const uint64_t out = c.circuit->evaluate(in);
            for (long e = 0; e < g; ++e) x[k + e] = (out >> (e * n)) & mask;
          }
          break;
        }
      }
    }
  return x;
}

}  // namespace cb
