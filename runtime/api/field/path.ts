// Field paths for error messages: spec.containers[0].image, metadata.labels[app].
// mirrors staging/src/k8s.io/apimachinery/pkg/util/validation/field/path.go

/** An immutable path from the object root to a field. */
export class Path {
  private constructor(
    private readonly parent: Path | undefined,
    private readonly name: string,
    private readonly index: string | undefined,
  ) {}

  /** NewPath("spec", "containers") */
  static of(name: string, ...more: string[]): Path {
    let p = new Path(undefined, name, undefined);
    for (const m of more) p = p.child(m);
    return p;
  }

  child(name: string, ...more: string[]): Path {
    let p = new Path(this, name, undefined);
    for (const m of more) p = p.child(m);
    return p;
  }

  /** containers[0] */
  at(index: number): Path {
    return new Path(this, '', String(index));
  }

  /** labels[app] */
  key(key: string): Path {
    return new Path(this, '', key);
  }

  toString(): string {
    const own =
      this.index !== undefined ? `[${this.index}]` : this.parent ? `.${this.name}` : this.name;
    return this.parent ? this.parent.toString() + own : own;
  }
}
